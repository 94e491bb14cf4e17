#include "PolicyScoreView.h"

#include "score/Fact.h"
#include "score/SessionScoring.h"

#include <QGridLayout>
#include <QLabel>
#include <QListWidget>
#include <QLocale>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr int kShownLostFacts = 200;
} // namespace

PolicyScoreView::PolicyScoreView(QWidget *parent)
    : QGroupBox(tr("What the policy keeps and costs"), parent)
    , m_state(new QLabel(this))
    , m_lost(new QListWidget(this))
{
    setObjectName(u"PolicyScoreView"_s);
    auto *grid = new QGridLayout(this);
    grid->addWidget(new QLabel(tr("<b>Recorded</b>"), this), 0, 1, Qt::AlignRight);
    grid->addWidget(new QLabel(tr("<b>What-if</b>"), this), 0, 2, Qt::AlignRight);
    const std::array<std::pair<QString, QString>, RowCount> rows{{
        {tr("Coverage"), tr("Of the facts each request's answer used (an instruction, a file, a command's outcome, a name), "
                            "the share its view still held: verbatim, in the checkpoint, or in an offloaded file it names")},
        {tr("Facts needed"), tr("Facts established before a request that its answer then used, over all requests")},
        {tr("Facts lost"), tr("Needed facts the view no longer held in any form")},
        {tr("Input billed in full"), tr("Prompt tokens a provider bills at the full input price")},
        {tr("Cache writes"), tr("Prompt tokens written to the provider's prompt cache (Anthropic bills them at 1.25 times input)")},
        {tr("Cache reads"), tr("Prompt tokens read from the prompt cache: the part of a view equal to the previous request's")},
        {tr("Cost"), tr("Requests and summariser calls at the model's prices (Settings can change them)")},
    }};
    for (int r = 0; r < RowCount; ++r) {
        auto *name = new QLabel(rows[size_t(r)].first, this);
        name->setToolTip(rows[size_t(r)].second);
        grid->addWidget(name, r + 1, 0);
        for (int c = 0; c < 2; ++c) {
            auto *value = new QLabel(u"–"_s, this);
            value->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            value->setToolTip(rows[size_t(r)].second);
            grid->addWidget(value, r + 1, c + 1);
            m_cells[size_t(r)][size_t(c)] = value;
        }
    }
    m_state->setWordWrap(true);
    grid->addWidget(m_state, RowCount + 1, 0, 1, 3);
    m_lost->setObjectName(u"LostFacts"_s);
    m_lost->setToolTip(tr("Facts the what-if loses; open one to see the request that needed it"));
    m_lost->setMinimumHeight(90);
    m_lost->setWordWrap(true);
    grid->addWidget(m_lost, RowCount + 2, 0, 1, 3);
    connect(m_lost, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        Q_EMIT requestChosen(item->data(RequestRole).toInt());
    });
    setScoring(nullptr);
}

void PolicyScoreView::setPending()
{
    m_state->setText(tr("Scoring the session: finding the facts each request used…"));
    m_state->show();
}

void PolicyScoreView::setScoring(std::shared_ptr<const SessionScoring> scoring)
{
    m_scoring = std::move(scoring);
    for (auto &row : m_cells)
        for (QLabel *cell : row)
            cell->setText(u"–"_s);
    m_lost->clear();
    if (!m_scoring) {
        m_state->setText(tr("Open a session to see what a policy keeps and costs."));
        m_state->show();
        return;
    }
    m_state->setVisible(!m_scoring->price());
    m_state->setText(tr("No price is known for the model \u201c%1\u201d: costs are in tokens only.").arg(m_scoring->model()));
    show(0, m_scoring->recorded());
}

void PolicyScoreView::setWhatIf(const RunScore &score)
{
    if (!m_scoring)
        return;
    show(1, score);
    m_lost->clear();
    const ScoreBasis &basis = m_scoring->basis();
    for (qsizetype i = 0; i < std::min<qsizetype>(kShownLostFacts, score.lostFacts.size()); ++i) {
        const LostFact &lost = score.lostFacts[i];
        const Fact &fact = basis.facts.value(lost.fact);
        auto *item = new QListWidgetItem(tr("Request %1 used the %2 \u201c%3\u201d; this policy had dropped it")
                                             .arg(basis.requestIndexes.value(lost.request))
                                             .arg(factKindName(fact.kind), fact.text.left(160)),
                                         m_lost);
        item->setData(RequestRole, lost.request);
    }
    if (score.lostFacts.size() > kShownLostFacts)
        new QListWidgetItem(tr("… and %1 more").arg(score.lostFacts.size() - kShownLostFacts), m_lost);
}

void PolicyScoreView::show(int column, const RunScore &score)
{
    const QLocale locale;
    auto set = [&](Row row, const QString &text) { m_cells[size_t(row)][size_t(column)]->setText(text); };
    set(CoverageRow, locale.toString(100.0 * score.coverage.coverage(), 'f', 1) + u" %"_s);
    set(NeededRow, locale.toString(score.coverage.needed));
    set(LostRow, locale.toString(score.coverage.lost));
    set(InputRow, locale.toString(score.cost.input));
    set(CacheWriteRow, locale.toString(score.cost.cacheWrite));
    set(CacheReadRow, locale.toString(score.cost.cacheRead));
    set(CostRow, score.priced ? u"US$ "_s + locale.toString(score.cost.usd(score.price), 'f', 2) : tr("no price"));
}

QString PolicyScoreView::cell(Row row, bool whatIf) const
{
    return m_cells[size_t(row)][whatIf ? 1 : 0]->text();
}

} // namespace wl
