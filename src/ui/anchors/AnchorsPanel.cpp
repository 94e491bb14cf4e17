#include "AnchorsPanel.h"

#include "AnchorHistoryModel.h"
#include "AnchorItemsModel.h"
#include "AnchorLineageView.h"
#include "WordDiff.h"
#include "common/PaletteColors.h"

#include <QEvent>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

AnchorsPanel::AnchorsPanel(AnchorHistoryModel *model, AnchorItemsModel *items, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_tabs(new QTabWidget(this))
    , m_lineageView(new AnchorLineageView(items ? items : new AnchorItemsModel(this), this))
    , m_table(new QTableView(this))
    , m_legend(new QLabel(this))
    , m_diffTitle(new QLabel(this))
    , m_diff(new QTextBrowser(this))
{
    setObjectName(u"AnchorsPanel"_s);
    m_table->setObjectName(u"AnchorsTable"_s);
    m_table->setModel(model);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setWordWrap(false);
    m_table->setTabKeyNavigation(false); // Tab goes on to the next control; arrow keys move between cells
    m_table->horizontalHeader()->setDefaultSectionSize(220);
    m_table->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_diff->setObjectName(u"AnchorDiff"_s);
    m_diff->setOpenLinks(false);
    m_diffTitle->setWordWrap(true);

    m_legend->setObjectName(u"AnchorsLegend"_s);
    m_legend->setTextFormat(Qt::RichText);
    m_legend->setWordWrap(true);
    updateLegend();

    auto *bottom = new QWidget(this);
    auto *bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_diffTitle);
    bottomLayout->addWidget(m_diff, 1);

    auto *splitter = new QSplitter(Qt::Vertical, this);
    splitter->setObjectName(u"AnchorsSplitter"_s);
    splitter->addWidget(m_table);
    splitter->addWidget(bottom);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *whole = new QWidget(this);
    auto *wholeLayout = new QVBoxLayout(whole);
    wholeLayout->setContentsMargins(0, 0, 0, 0);
    wholeLayout->addWidget(m_legend);
    wholeLayout->addWidget(splitter, 1);

    m_tabs->setObjectName(u"AnchorsTabs"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_lineageView, tr("Items"));
    m_tabs->addTab(whole, tr("Whole anchors"));
    m_tabs->setTabToolTip(0, tr("Each line of each anchor, followed through the compactions"));
    m_tabs->setTabToolTip(1, tr("The anchors as each compaction left them"));

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addWidget(m_tabs, 1);

    connect(m_lineageView, &AnchorLineageView::recordSelected, this, &AnchorsPanel::recordSelected);
    connect(m_lineageView, &AnchorLineageView::messageSelected, this, &AnchorsPanel::messageSelected);

    connect(m_table->selectionModel(), &QItemSelectionModel::currentChanged, this, &AnchorsPanel::onCurrentChanged);
    connect(model, &QAbstractItemModel::modelReset, this, &AnchorsPanel::onCurrentChanged);
    onCurrentChanged();
}

QList<AnchorsPanel::LegendSwatch> AnchorsPanel::legendSwatches(const QPalette &palette)
{
    // The cells paint the model's translucent tint over the view's Base: the legend shows the result of
    // that, opaque, with the view's text on it, so it reads as the cells do in either palette.
    const QColor base = palette.color(QPalette::Base);
    const QColor text = palette.color(QPalette::Text);
    QList<LegendSwatch> swatches;
    const std::pair<AnchorChange, QString> entries[] = {
        {AnchorChange::New, tr("new")},
        {AnchorChange::Updated, tr("updated")},
        {AnchorChange::Kept, tr("kept: the new value was unknown")},
    };
    for (const auto &[change, label] : entries) {
        const QColor tint = AnchorHistoryModel::changeTint(change);
        swatches.append({change, label, mixColors(base, tint, tint.alphaF()), text});
    }
    return swatches;
}

void AnchorsPanel::updateLegend()
{
    QString html = tr("Cells:");
    const auto swatches = legendSwatches(palette());
    for (const LegendSwatch &s : swatches) {
        html += u" <span style=\"background:%1; color:%2\">&nbsp;%3&nbsp;</span>"_s.arg(
            s.background.name(), s.text.name(), s.label.toHtmlEscaped());
    }
    html += u' ' + tr("plain: unchanged").toHtmlEscaped();
    m_legend->setText(html);
}

void AnchorsPanel::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        updateLegend();
}

QString AnchorsPanel::diffHtml() const
{
    return m_diff->toHtml();
}

void AnchorsPanel::showRecord(const QString &recordId)
{
    m_lineageView->showRecord(recordId);
    const int column = m_model->columnForRecord(recordId);
    if (column < 0)
        return;
    const int row = m_table->currentIndex().isValid() ? m_table->currentIndex().row() : 0;
    m_table->setCurrentIndex(m_model->index(row, column));
    m_table->scrollTo(m_model->index(row, column));
}

void AnchorsPanel::onCurrentChanged()
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid()) {
        m_diffTitle->setText(m_model->columnCount() == 0
            ? tr("No compaction has produced anchors in this session yet.")
            : tr("Select a cell to compare it with the previous compaction."));
        m_diff->clear();
        return;
    }
    const QString before = current.data(AnchorHistoryModel::PreviousValueRole).toString();
    const auto &snapshot = m_model->snapshots().at(current.column());
    const QString after = snapshot.anchors.value(kAllAnchorKinds[size_t(current.row())]);
    m_diffTitle->setText(tr("<b>%1</b>: compaction #%2 against %3")
                             .arg(m_model->headerData(current.row(), Qt::Vertical).toString())
                             .arg(current.column() + 1)
                             .arg(current.column() > 0 ? tr("#%1").arg(current.column()) : tr("nothing (first compaction)")));
    m_diff->setHtml(diffToHtml(wordDiff(before, after)));
    Q_EMIT recordSelected(snapshot.recordId);
}

} // namespace wl
