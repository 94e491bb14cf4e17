#include "ComparePoliciesWindow.h"

#include "SweepChart.h"
#include "SweepTableModel.h"

#include "BackgroundRunner.h"
#include "score/PriceTable.h"
#include "score/RecordedSession.h"
#include "score/SessionScoring.h"
#include "whatif/WhatIfSession.h"

#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
enum Source { OpenSession, Folder };
}

ComparePoliciesWindow::ComparePoliciesWindow(QWidget *parent)
    : QWidget(parent, Qt::Window)
    , m_runner(new BackgroundRunner(BackgroundRunner::Policy::LatestOnly, this))
{
    setObjectName(u"ComparePoliciesWindow"_s);
    setWindowTitle(tr("Compare Policies"));

    m_source = new QComboBox(this);
    m_source->setObjectName(u"SweepSource"_s);
    m_source->addItem(tr("Open session"), OpenSession);
    m_source->addItem(tr("Folder of transcripts"), Folder);
    m_chooseFolder = new QPushButton(tr("Choose &Folder..."), this);
    connect(m_source, &QComboBox::currentIndexChanged, this, &ComparePoliciesWindow::updateSource);
    connect(m_chooseFolder, &QPushButton::clicked, this, [this] {
        const QString folder = QFileDialog::getExistingDirectory(this, tr("Folder of Transcripts"), m_folder);
        if (!folder.isEmpty())
            setFolder(folder);
    });

    m_grid = new QPlainTextEdit(this);
    m_grid->setObjectName(u"SweepGrid"_s);
    m_grid->setPlainText(QString::fromUtf8(defaultGrid()));
    m_grid->setToolTip(tr("The policies to compare: a JSON object of option name (window, warn, soft, full, emergency, tail, "
                          "offload-threshold, offload-at-tool-time, count-tool-schemas) to a list of values; every combination "
                          "is replayed, over the current policy."));
    m_grid->setMaximumHeight(m_grid->fontMetrics().lineSpacing() * 4 + 12);

    m_run = new QPushButton(tr("&Run"), this);
    m_run->setObjectName(u"SweepRun"_s);
    m_cancel = new QPushButton(tr("&Cancel"), this);
    m_cancel->setEnabled(false);
    m_progress = new QProgressBar(this);
    m_progress->setRange(0, 1);
    m_progress->setValue(0);
    m_status = new QLabel(this);
    m_status->setObjectName(u"SweepStatus"_s);
    m_status->setWordWrap(true);
    connect(m_run, &QPushButton::clicked, this, &ComparePoliciesWindow::run);
    connect(m_cancel, &QPushButton::clicked, this, &ComparePoliciesWindow::cancel);

    m_chart = new SweepChart(this);
    m_chart->setMinimumSize(360, 280);
    m_model = new SweepTableModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SweepTableModel::SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(u"SweepTable"_s);
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(SweepTableModel::UsdColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ComparePoliciesWindow::onTableSelection);
    connect(m_chart, &SweepChart::rowClicked, this, &ComparePoliciesWindow::selectRow);

    m_apply = new QPushButton(tr("&Apply to Thresholds"), this);
    m_apply->setObjectName(u"SweepApply"_s);
    m_apply->setToolTip(tr("Load the selected policy into the Thresholds dock's sliders"));
    m_apply->setEnabled(false);
    connect(m_apply, &QPushButton::clicked, this, [this] {
        const int row = selectedRow();
        if (row < 0)
            return;
        CompactionPolicy policy = m_ranWith;
        QString error;
        if (PolicyGrid::apply(m_model->row(row).settings, policy, &error))
            Q_EMIT applyRequested(policy);
    });

    auto *top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Sessions:"), this));
    top->addWidget(m_source);
    top->addWidget(m_chooseFolder);
    top->addStretch();
    auto *gridRow = new QHBoxLayout;
    gridRow->addWidget(m_grid, 1);
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(m_run);
    buttons->addWidget(m_cancel);
    buttons->addStretch();
    gridRow->addLayout(buttons);
    auto *progressRow = new QHBoxLayout;
    progressRow->addWidget(m_progress);
    progressRow->addWidget(m_status, 1);
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_table);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setSizes({560, 640});
    auto *bottom = new QHBoxLayout;
    bottom->addStretch();
    bottom->addWidget(m_apply);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(new QLabel(tr("Policies (option: values):"), this));
    layout->addLayout(gridRow);
    layout->addLayout(progressRow);
    layout->addWidget(splitter, 1);
    layout->addLayout(bottom);
    resize(1200, 720);
    updateSource();
}

ComparePoliciesWindow::~ComparePoliciesWindow()
{
    // The running sweep stops early; the runner waits for it before this object goes.
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    delete m_runner;
}

QByteArray ComparePoliciesWindow::defaultGrid()
{
    return QByteArrayLiteral(R"({"full": [0.75, 0.8, 0.85, 0.9], "tail": [4, 12], "strategy": ["summarise", "mask", "hybrid"]})");
}

void ComparePoliciesWindow::setOpenSession(const QString &name, std::shared_ptr<const WhatIfSession> session,
                                           std::shared_ptr<const SessionScoring> scoring)
{
    m_sessionName = name;
    m_session = std::move(session);
    m_scoring = std::move(scoring);
    updateSource();
}

void ComparePoliciesWindow::setCurrentPolicy(const CompactionPolicy &policy)
{
    m_current = policy;
}

void ComparePoliciesWindow::setFolder(const QString &folder)
{
    m_folder = folder;
    m_source->setCurrentIndex(m_folder.isEmpty() ? OpenSession : Folder);
    updateSource();
}

void ComparePoliciesWindow::updateSource()
{
    const bool folder = m_source->currentData().toInt() == Folder;
    m_chooseFolder->setEnabled(folder);
    m_run->setEnabled(folder ? !m_folder.isEmpty() : m_session && m_scoring);
    if (m_cancel->isEnabled())
        return; // a sweep runs: its progress is the status
    if (folder)
        m_status->setText(m_folder.isEmpty() ? tr("Choose a folder of transcripts.") : tr("Folder: %1").arg(QDir::toNativeSeparators(m_folder)));
    else if (!m_session)
        m_status->setText(tr("Open a session to compare policies on it."));
    else if (!m_scoring)
        m_status->setText(tr("The session's facts are still being found; run once they are."));
    else
        m_status->setText(tr("Session: %1").arg(m_sessionName));
}

bool ComparePoliciesWindow::isRunning() const
{
    return m_runner->isBusy();
}

QString ComparePoliciesWindow::statusText() const
{
    return m_status->text();
}

void ComparePoliciesWindow::run()
{
    QString error;
    const std::optional<PolicyGrid> grid = PolicyGrid::fromJson(m_grid->toPlainText().toUtf8(), &error);
    if (!grid) {
        m_status->setText(tr("Policies: %1").arg(error));
        return;
    }
    // The grid's policies, then the current one (no settings: the base itself).
    QList<PolicySettings> policies = grid->expand();
    policies.append(PolicySettings());
    const bool folder = m_source->currentData().toInt() == Folder;
    if (folder ? m_folder.isEmpty() : !(m_session && m_scoring))
        return;
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    m_cancelFlag = std::make_shared<std::atomic<bool>>(false);
    m_ranWith = m_current;
    m_run->setEnabled(false);
    m_cancel->setEnabled(true);
    m_progress->setRange(0, int(policies.size()));
    m_progress->setValue(0);
    m_status->setText(folder ? tr("Reading the transcripts...") : tr("Replaying %n policies...", nullptr, int(policies.size())));

    QList<SweepSession> sessions;
    if (!folder)
        sessions << SweepSession{m_sessionName, m_session, m_scoring, m_current};
    // Progress from the workers, a queued call per run (dropped with this window).
    auto progress = [this](int done, int total) {
        QMetaObject::invokeMethod(this, [this, done, total] {
            m_progress->setRange(0, total);
            m_progress->setValue(std::max(m_progress->value(), done));
            m_status->setText(tr("Replayed %1 of %2 runs").arg(done).arg(total));
        }, Qt::QueuedConnection);
    };
    m_runner->run([sessions, policies, stop = m_cancelFlag, progress, folderPath = folder ? m_folder : QString(), base = m_current,
                   overrides = m_priceOverrides](QString &) mutable {
        Outcome outcome;
        if (!folderPath.isEmpty()) {
            PriceTable prices = PriceTable::builtIn();
            prices.applyOverrides(overrides);
            const QFileInfoList files = QDir(folderPath).entryInfoList(QDir::Files | QDir::Readable, QDir::Name);
            for (const QFileInfo &file : files) {
                if (stop->load()) {
                    outcome.cancelled = true;
                    return outcome;
                }
                QString problem;
                const std::optional<RecordedSession> s = RecordedSession::importFile(file.filePath(), {}, 0, &problem);
                if (!s) {
                    outcome.skipped << file.fileName();
                    continue;
                }
                CompactionPolicy policy = base;
                // The sliders' policy over every transcript, each at its own model's window.
                policy.contextWindow = s->replay.defaultPolicy().contextWindow;
                sessions << SweepSession::prepare(s->name, s->replay, s->recorded, s->reportedOutput, policy, SummaryModel::extractive(), prices);
            }
        }
        outcome.sessions = int(sessions.size());
        PolicySweep::Options options;
        options.cancel = stop.get();
        options.progress = [progress, count = int(policies.size()), runs = int(policies.size() * sessions.size())](int done, int) {
            // Reported in policies (of all sessions) for the bar.
            progress(runs > 0 ? int(qint64(done) * count / runs) : count, count);
        };
        outcome.rows = PolicySweep::run(sessions, policies, options, &outcome.cancelled);
        return outcome;
    }, [this](const Outcome &outcome, const QString &failure) { showOutcome(outcome, failure); });
}

void ComparePoliciesWindow::cancel()
{
    if (m_cancelFlag)
        m_cancelFlag->store(true);
    m_status->setText(tr("Cancelling..."));
}

void ComparePoliciesWindow::showOutcome(const Outcome &outcome, const QString &error)
{
    m_cancel->setEnabled(false);
    updateSource();
    if (!error.isEmpty()) {
        m_status->setText(tr("The sweep failed: %1").arg(error));
    } else if (outcome.cancelled) {
        m_status->setText(tr("Cancelled; the policies shown before are kept."));
    } else if (outcome.sessions == 0) {
        m_status->setText(tr("No file in the folder imports as a transcript."));
    } else {
        const int current = int(outcome.rows.size()) - 1;
        m_model->setRows(outcome.rows, current);
        m_chart->setRows(outcome.rows, current);
        const auto front = std::count_if(outcome.rows.cbegin(), outcome.rows.cend(), [](const SweepRow &r) { return r.pareto; });
        QString text = tr("%n policies over %1 session(s); %2 on the Pareto front (cost against coverage).", nullptr, int(outcome.rows.size()))
                           .arg(outcome.sessions)
                           .arg(front);
        if (!outcome.skipped.isEmpty())
            text += u' ' + tr("Skipped (not transcripts): %1").arg(outcome.skipped.join(u", "_s));
        m_status->setText(text);
        m_progress->setValue(m_progress->maximum());
        m_table->resizeColumnsToContents();
        selectRow(current);
    }
    Q_EMIT finished();
}

int ComparePoliciesWindow::selectedRow() const
{
    const QModelIndexList rows = m_table->selectionModel()->selectedRows();
    return rows.isEmpty() ? -1 : m_proxy->mapToSource(rows.constFirst()).row();
}

void ComparePoliciesWindow::selectRow(int sourceRow)
{
    const QModelIndex index = m_proxy->mapFromSource(m_model->index(sourceRow, 0));
    if (!index.isValid()) {
        m_table->clearSelection();
        return;
    }
    m_table->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
}

void ComparePoliciesWindow::onTableSelection()
{
    const int row = selectedRow();
    m_chart->setSelectedRow(row);
    m_apply->setEnabled(row >= 0 && m_model->row(row).problem.isEmpty());
}

} // namespace wl
