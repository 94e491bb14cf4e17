#include "offloads/OffloadsPanel.h"

#include "offloads/OffloadFilter.h"
#include "offloads/OffloadListModel.h"
#include "offloads/OffloadViewer.h"

#include "compaction/CompactionRecord.h"

#include <QApplication>
#include <QClipboard>
#include <QDataStream>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIODevice>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QToolButton>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr quint32 kStateMagic = 0x574c4f46; // "WLOF"
constexpr quint32 kStateVersion = 2; // 2: the Source column
} // namespace

OffloadsPanel::OffloadsPanel(QWidget *parent)
    : QWidget(parent)
    , m_model(new OffloadListModel(this))
    , m_proxy(new OffloadFilter(this))
    , m_filter(new QLineEdit(this))
    , m_locate(new QToolButton(this))
    , m_compactionBar(new QWidget(this))
    , m_compactionLabel(new QLabel(m_compactionBar))
    , m_view(new QTreeView(this))
    , m_viewer(new OffloadViewer(this))
    , m_splitter(new QSplitter(Qt::Vertical, this))
{
    setObjectName(u"offloadsPanel"_s);

    m_proxy->setObjectName(u"offloadsProxy"_s);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(OffloadListModel::SortRole);
    m_proxy->setFilterKeyColumn(-1);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);

    m_filter->setObjectName(u"offloadsFilter"_s);
    m_filter->setPlaceholderText(tr("Filter by tool, file, command or call ID"));
    m_filter->setClearButtonEnabled(true);
    connect(m_filter, &QLineEdit::textChanged, m_proxy, &QSortFilterProxyModel::setFilterFixedString);

    m_locate->setObjectName(u"locateMessageButton"_s);
    m_locate->setText(tr("Show in Conversation"));
    m_locate->setToolTip(tr("Scroll the conversation to the message this result came from"));
    m_locate->setEnabled(false);
    connect(m_locate, &QToolButton::clicked, this, [this] { requestLocate(m_view->currentIndex()); });

    m_view->setObjectName(u"offloadsView"_s);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setUniformRowHeights(true);
    m_view->setAllColumnsShowFocus(true);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(OffloadListModel::TimeColumn, Qt::DescendingOrder);
    m_view->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->setContextMenuPolicy(Qt::CustomContextMenu);
    m_view->setTextElideMode(Qt::ElideMiddle); // a long path keeps its file name in sight
    m_view->header()->setStretchLastSection(false);
    connect(m_view->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &OffloadsPanel::openCurrent);
    connect(m_view, &QTreeView::doubleClicked, this, &OffloadsPanel::requestLocate);
    connect(m_view, &QTreeView::customContextMenuRequested, this, &OffloadsPanel::showContextMenu);

    auto *listPage = new QWidget(m_splitter);
    listPage->setObjectName(u"offloadsListPage"_s);
    auto *bar = new QHBoxLayout;
    bar->setContentsMargins(0, 0, 0, 0);
    bar->addWidget(m_filter, 1);
    bar->addWidget(m_locate);
    // Shown while the list holds only what one compaction offloaded.
    m_compactionBar->setObjectName(u"offloadsCompactionBar"_s);
    m_compactionLabel->setObjectName(u"offloadsCompactionLabel"_s);
    m_compactionLabel->setWordWrap(true);
    auto *showAll = new QToolButton(m_compactionBar);
    showAll->setObjectName(u"offloadsShowAllButton"_s);
    showAll->setText(tr("Show all"));
    showAll->setToolTip(tr("List every offloaded result of the session again"));
    connect(showAll, &QToolButton::clicked, this, &OffloadsPanel::clearCompactionFilter);
    auto *compactionLayout = new QHBoxLayout(m_compactionBar);
    compactionLayout->setContentsMargins(0, 0, 0, 0);
    compactionLayout->addWidget(m_compactionLabel, 1);
    compactionLayout->addWidget(showAll);
    m_compactionBar->hide();
    setTabOrder(m_locate, showAll); // Tab in visual order: below the filter, above the list (made last)
    // Another session's results (the model resets for a set it has nothing in common with).
    connect(m_model, &QAbstractItemModel::modelReset, this, &OffloadsPanel::clearCompactionFilter);

    auto *listLayout = new QVBoxLayout(listPage);
    listLayout->setContentsMargins(0, 0, 0, 0);
    listLayout->addLayout(bar);
    listLayout->addWidget(m_compactionBar);
    listLayout->addWidget(m_view, 1);

    m_splitter->setObjectName(u"offloadsSplitter"_s);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(listPage);
    m_splitter->addWidget(m_viewer);
    m_splitter->setStretchFactor(0, 1);
    m_splitter->setStretchFactor(1, 3); // the text gets most of the room

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);
}

OffloadsPanel::~OffloadsPanel() = default;

void OffloadsPanel::setRows(const QList<OffloadRow> &rows)
{
    const QString current = currentCallId();
    m_model->setRows(rows);
    // A reset loses the current row: put it back when it still exists, else close the viewer.
    if (!current.isEmpty() && currentCallId() != current && !showCallId(current))
        m_viewer->clear();
    for (int c = 0; c < OffloadListModel::ColumnCount; ++c) {
        if (c != OffloadListModel::SourceColumn && c != OffloadListModel::CallIdColumn)
            m_view->resizeColumnToContents(c);
    }
    // Call ids are long and say little: the Source column gets the room, the id a glimpse (its tooltip and
    // the context menu have it whole). Once: afterwards the widths are the user's (or their saved state).
    if (!m_columnsSized && !rows.isEmpty()) {
        m_columnsSized = true;
        const int x = m_view->fontMetrics().horizontalAdvance(u'x');
        m_view->resizeColumnToContents(OffloadListModel::CallIdColumn);
        m_view->setColumnWidth(OffloadListModel::CallIdColumn,
                               std::min(m_view->columnWidth(OffloadListModel::CallIdColumn), 10 * x));
        m_view->setColumnWidth(OffloadListModel::SourceColumn, 32 * x);
    }
}

void OffloadsPanel::updateReadBacks(const QHash<QString, int> &countsByCallId)
{
    m_model->updateReadBacks(countsByCallId);
}

bool OffloadsPanel::showCallId(const QString &callId)
{
    const int row = m_model->rowOfCallId(callId);
    if (row < 0)
        return false;
    QModelIndex proxyIndex = m_proxy->mapFromSource(m_model->index(row, 0));
    if (!proxyIndex.isValid()) { // filtered out: the user asked for it by name, show it
        m_filter->clear();
        proxyIndex = m_proxy->mapFromSource(m_model->index(row, 0));
    }
    if (!proxyIndex.isValid()) { // not one the compaction shown offloaded
        clearCompactionFilter();
        proxyIndex = m_proxy->mapFromSource(m_model->index(row, 0));
    }
    m_view->selectionModel()->setCurrentIndex(proxyIndex,
                                              QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_view->scrollTo(proxyIndex);
    return true;
}

bool OffloadsPanel::selectMessage(qint64 messageId)
{
    if (messageId <= 0)
        return false;
    for (const OffloadRow &row : m_model->rows())
        if (row.entry.messageId == messageId)
            return showCallId(row.entry.callId);
    return false;
}

void OffloadsPanel::showCompactionOffloads(const CompactionRecord &record)
{
    QSet<QString> callIds;
    for (const OffloadEntry &entry : record.offloaded)
        callIds.insert(entry.callId);
    m_filter->clear(); // all of them, whatever was typed
    m_proxy->setCallIds(callIds);
    const QString tier = tierDisplayName(record.tier);
    m_compactionLabel->setText(callIds.isEmpty()
        ? tr("The %1 compaction before request %2 offloaded nothing.").arg(tier).arg(record.requestIndex)
        : tr("Results the %1 compaction before request %2 offloaded: %3.").arg(tier).arg(record.requestIndex).arg(record.offloaded.size()));
    m_compactionBar->show();
    const QModelIndex first = m_proxy->index(0, 0);
    if (first.isValid())
        m_view->selectionModel()->setCurrentIndex(first, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
}

void OffloadsPanel::clearCompactionFilter()
{
    m_proxy->clearCallIds();
    m_compactionBar->hide();
    if (m_view->currentIndex().isValid())
        m_view->scrollTo(m_view->currentIndex());
}

bool OffloadsPanel::filtersByCompaction() const
{
    return m_proxy->restrictsCalls();
}

QString OffloadsPanel::compactionFilterText() const
{
    return m_proxy->restrictsCalls() ? m_compactionLabel->text() : QString();
}

QString OffloadsPanel::currentCallId() const
{
    return m_view->currentIndex().data(OffloadListModel::CallIdRole).toString();
}

QByteArray OffloadsPanel::saveState() const
{
    QByteArray state;
    QDataStream out(&state, QIODevice::WriteOnly);
    out.setVersion(QDataStream::Qt_6_5);
    out << kStateMagic << kStateVersion << m_splitter->saveState() << m_view->header()->saveState();
    return state;
}

bool OffloadsPanel::restoreState(const QByteArray &state)
{
    QDataStream in(state);
    in.setVersion(QDataStream::Qt_6_5);
    quint32 magic = 0;
    quint32 version = 0;
    QByteArray splitterState;
    QByteArray headerState;
    in >> magic >> version >> splitterState >> headerState;
    if (in.status() != QDataStream::Ok || magic != kStateMagic || version != kStateVersion)
        return false;
    const bool ok = m_splitter->restoreState(splitterState) && m_view->header()->restoreState(headerState);
    m_layoutSettled |= ok;
    m_columnsSized |= ok;
    return ok;
}

void OffloadsPanel::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    if (m_layoutSettled)
        return;
    // First show without a saved state: a quarter for the list, the rest for the text.
    m_layoutSettled = true;
    const int total = std::max(m_splitter->height(), 4);
    m_splitter->setSizes({total / 4, total - total / 4});
}

OffloadListModel *OffloadsPanel::model() const
{
    return m_model;
}

QSortFilterProxyModel *OffloadsPanel::proxyModel() const
{
    return m_proxy;
}

QTreeView *OffloadsPanel::view() const
{
    return m_view;
}

OffloadViewer *OffloadsPanel::viewer() const
{
    return m_viewer;
}

QSplitter *OffloadsPanel::splitter() const
{
    return m_splitter;
}

void OffloadsPanel::openCurrent()
{
    const QModelIndex current = m_view->currentIndex();
    m_locate->setEnabled(current.isValid());
    if (!current.isValid()) {
        m_viewer->clear();
        return;
    }
    const QString path = current.data(OffloadListModel::PathRole).toString();
    if (path == m_viewer->filePath())
        return;
    m_viewer->openFile(path, current.data(OffloadListModel::TitleRole).toString(),
                       current.data(OffloadListModel::SourceFileRole).toString());
}

void OffloadsPanel::requestLocate(const QModelIndex &proxyIndex)
{
    if (!proxyIndex.isValid())
        return;
    Q_EMIT locateMessageRequested(proxyIndex.data(OffloadListModel::CallIdRole).toString(),
                                  proxyIndex.data(OffloadListModel::MessageIdRole).toLongLong());
}

void OffloadsPanel::showContextMenu(const QPoint &pos)
{
    const QModelIndex index = m_view->indexAt(pos);
    if (!index.isValid())
        return;
    QMenu menu(this);
    menu.addAction(tr("Show in Conversation"), this, [this, index] { requestLocate(index); });
    menu.addAction(tr("Copy Path"), this, [index] {
        QApplication::clipboard()->setText(index.data(OffloadListModel::PathRole).toString());
    });
    menu.addAction(tr("Copy Call ID"), this, [index] {
        QApplication::clipboard()->setText(index.data(OffloadListModel::CallIdRole).toString());
    });
    menu.exec(m_view->viewport()->mapToGlobal(pos));
}

} // namespace wl
