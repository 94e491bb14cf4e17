#include "CompactionsPanel.h"

#include "CompactionDetail.h"
#include "CompactionLogModel.h"

#include <QCheckBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QSplitter>
#include <QStandardPaths>
#include <QTableView>
#include <QTextBrowser>
#include <QToolButton>

using namespace Qt::StringLiterals;

namespace wl {

CompactionsPanel::CompactionsPanel(CompactionLogModel *model, QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_filter(new CompactionTierFilter(this))
    , m_table(new QTableView(this))
    , m_detail(new QTextBrowser(this))
    , m_review(new QCheckBox(tr("Review summaries"), this))
    , m_edit(new QToolButton(this))
    , m_undoEdit(new QToolButton(this))
{
    setObjectName(u"CompactionsPanel"_s);
    m_filter->setSourceModel(model);
    m_table->setObjectName(u"CompactionsTable"_s);
    m_table->setModel(m_filter);
    m_table->setTabKeyNavigation(false); // Tab goes on to the next control; arrow keys move between cells
    m_table->setSortingEnabled(true);
    m_table->sortByColumn(CompactionLogModel::TimeColumn, Qt::AscendingOrder);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto *bar = new QHBoxLayout;
    bar->addWidget(new QLabel(tr("Show:"), this));
    for (Tier tier : {Tier::None, Tier::Warn, Tier::Soft, Tier::Full, Tier::Emergency}) {
        auto *box = new QCheckBox(tierDisplayName(tier), this);
        box->setObjectName(u"TierFilter_"_s + tierName(tier));
        box->setChecked(true);
        connect(box, &QCheckBox::toggled, this, [this, tier](bool on) { m_filter->setTierVisible(tier, on); });
        bar->addWidget(box);
    }
    bar->addStretch();
    m_review->setObjectName(u"ReviewSummariesCheck"_s);
    m_review->setToolTip(tr("This session: a Soft or Full summary waits for you to read, edit and accept it before it "
                            "replaces the history (the Emergency tier never waits)"));
    connect(m_review, &QCheckBox::toggled, this, &CompactionsPanel::reviewSummariesToggled);
    bar->addWidget(m_review);
    m_edit->setObjectName(u"EditCheckpointButton"_s);
    m_edit->setText(tr("Edit Checkpoint..."));
    m_edit->setToolTip(tr("Edit the selected compaction's checkpoint; the requests that follow send the new version"));
    connect(m_edit, &QToolButton::clicked, this, [this] {
        if (const Checkpoint *cp = selectedCheckpoint())
            Q_EMIT editCheckpointRequested(*cp);
    });
    bar->addWidget(m_edit);
    m_undoEdit->setObjectName(u"UndoCheckpointEditButton"_s);
    m_undoEdit->setText(tr("Undo Edit"));
    m_undoEdit->setToolTip(tr("Go back one version of the selected checkpoint (every version's text is kept)"));
    connect(m_undoEdit, &QToolButton::clicked, this, [this] {
        if (const Checkpoint *cp = selectedCheckpoint())
            Q_EMIT undoCheckpointEditRequested(cp->id);
    });
    bar->addWidget(m_undoEdit);
    auto *exportButton = new QToolButton(this);
    exportButton->setObjectName(u"CompactionsExportButton"_s);
    exportButton->setText(tr("Export"));
    exportButton->setToolTip(tr("Save the records shown as JSONL (the audit format) or CSV"));
    exportButton->setPopupMode(QToolButton::InstantPopup);
    auto *menu = new QMenu(exportButton);
    connect(menu->addAction(tr("As JSONL...")), &QAction::triggered, this, [this] { exportTo(false); });
    connect(menu->addAction(tr("As CSV...")), &QAction::triggered, this, [this] { exportTo(true); });
    exportButton->setMenu(menu);
    bar->addWidget(exportButton);

    m_detail->setObjectName(u"CompactionDetail"_s);
    m_detail->setOpenLinks(false);
    m_detail->setPlaceholderText(tr("Select a compaction to see what it summarised and offloaded, which anchors changed, and its checkpoint."));
    // The dock sits wide and low: the table on the left, what the selected record did beside it.
    auto *splitter = new QSplitter(Qt::Horizontal, this);
    splitter->setObjectName(u"CompactionsSplitter"_s);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_table);
    splitter->addWidget(m_detail);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    // Tab in visual order: the filters and Export above, then the table and the detail (made first).
    setTabOrder({m_review, m_edit, m_undoEdit, exportButton, m_table, m_detail});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->addLayout(bar);
    layout->addWidget(splitter, 1);

    connect(m_model, &QAbstractItemModel::modelReset, this, &CompactionsPanel::hideEmptyColumns);
    connect(m_model, &QAbstractItemModel::rowsInserted, this, &CompactionsPanel::hideEmptyColumns);
    connect(m_model, &QAbstractItemModel::modelReset, m_detail, &QTextBrowser::clear);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex &current) {
        showDetail(current);
        if (!current.isValid())
            return;
        const QModelIndex source = m_filter->mapToSource(current);
        const CompactionRecord &r = m_model->records().at(source.row());
        Q_EMIT recordSelected(r.id, r.requestIndex);
    });
    hideEmptyColumns();
    updateButtons();
}

void CompactionsPanel::setReviewSummaries(bool on)
{
    QSignalBlocker blocker(m_review);
    m_review->setChecked(on);
}

const Checkpoint *CompactionsPanel::selectedCheckpoint() const
{
    const QModelIndex current = m_table->currentIndex();
    if (!current.isValid())
        return nullptr;
    const CompactionRecord &r = m_model->records().at(m_filter->mapToSource(current).row());
    const auto it = m_checkpoints.constFind(r.id);
    return it == m_checkpoints.cend() || it->id <= 0 ? nullptr : &*it;
}

void CompactionsPanel::updateButtons()
{
    const Checkpoint *cp = selectedCheckpoint();
    m_edit->setEnabled(cp != nullptr);
    m_undoEdit->setEnabled(cp && cp->version > 1);
}

void CompactionsPanel::setCheckpoints(const QList<Checkpoint> &checkpoints)
{
    m_checkpoints.clear();
    for (const Checkpoint &cp : checkpoints)
        if (!cp.recordId.isEmpty())
            m_checkpoints.insert(cp.recordId, cp);
    showDetail(m_table->currentIndex());
}

QString CompactionsPanel::detailText() const
{
    return m_detail->toPlainText();
}

void CompactionsPanel::showDetail(const QModelIndex &current)
{
    updateButtons();
    if (!current.isValid()) {
        m_detail->clear();
        return;
    }
    const CompactionRecord &r = m_model->records().at(m_filter->mapToSource(current).row());
    const auto checkpoint = m_checkpoints.constFind(r.id);
    m_detail->setHtml(CompactionDetail::html(r, checkpoint == m_checkpoints.cend() ? nullptr : &*checkpoint));
}

void CompactionsPanel::hideEmptyColumns()
{
    // A column no record fills (no errors, no summariser in a session of Warn offloads only) is noise.
    for (int column = 0; column < m_model->columnCount(); ++column) {
        bool empty = true;
        for (int row = 0; row < m_model->rowCount() && empty; ++row)
            empty = m_model->index(row, column).data().toString().isEmpty();
        m_table->setColumnHidden(column, empty && m_model->rowCount() > 0);
    }
}

void CompactionsPanel::showRecord(const QString &recordId)
{
    const int row = m_model->rowForRecord(recordId);
    if (row < 0)
        return;
    const QModelIndex index = m_filter->mapFromSource(m_model->index(row, 0));
    if (!index.isValid())
        return; // filtered out: leave the selection alone
    {
        QSignalBlocker blocker(m_table->selectionModel());
        m_table->selectRow(index.row());
    }
    // The blocked selection model told the view nothing: repaint, and show what the row did.
    m_table->viewport()->update();
    m_table->scrollTo(index);
    showDetail(index);
}

bool CompactionsPanel::exportVisible(const QString &path, bool csv, QString *error) const
{
    QList<int> rows;
    for (int i = 0; i < m_filter->rowCount(); ++i)
        rows.append(m_filter->mapToSource(m_filter->index(i, 0)).row());
    std::sort(rows.begin(), rows.end()); // time order, whatever the view's sort
    const QByteArray bytes = csv ? m_model->toCsv(rows) : m_model->toJsonl(rows);
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit()) {
        if (error)
            *error = tr("Could not write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void CompactionsPanel::exportTo(bool csv)
{
    QSettings settings;
    const QString dirKey = u"Compactions/exportDir"_s;
    const QString dir = settings.value(dirKey, QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)).toString();
    const QString suffix = csv ? u"csv"_s : u"jsonl"_s;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export compaction records"),
        dir + u"/compactions."_s + suffix, csv ? tr("CSV file (*.csv)") : tr("JSON Lines (*.jsonl)"));
    if (path.isEmpty())
        return;
    settings.setValue(dirKey, QFileInfo(path).absolutePath());
    QString error;
    if (!exportVisible(path, csv, &error))
        QMessageBox::warning(this, tr("Export failed"), error);
}

} // namespace wl
