#include "MainWindow.h"
#include "anchors/AnchorHistoryModel.h"
#include "anchors/AnchorItemsModel.h"
#include "anchors/AnchorLineageView.h"
#include "anchors/AnchorsPanel.h"
#include "compactions/CompactionLogModel.h"
#include "compactions/CompactionsPanel.h"
#include "context/ContextModels.h"
#include "context/ContextPanel.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "offloads/OffloadListModel.h"
#include "offloads/OffloadsPanel.h"
#include "timeline/TimelineChart.h"
#include "timeline/TimelineLineLayer.h"
#include "timeline/TimelineMarkerLayer.h"
#include "timeline/TimelinePanel.h"
#include "workbench/DemoSession.h"
#include "workbench/LoadedSession.h"
#include "workbench/SelectionLink.h"
#include "workbench/SessionLoader.h"

#include "replay/SessionImporter.h"
#include "store/SessionStore.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTreeView>
#include <QTest>
#include <QToolButton>
#include <QTreeView>

using namespace wl;
using namespace Qt::StringLiterals;

// Each way of choosing something in one view of the window, on the demo session: every other view
// follows, and the conversation scrolls to it.
class TestLinkedSelection : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void mappingRules();
    void timelinePoint();
    void timelineMarker();
    void compactionsRow();
    void anchorsCell();
    void anchorItemSourceLink();
    void contextDockMessage();
    void offloadsShowInConversation();
    void offloadsDoubleClick();
    void conversationRow();
    void conversationMarker();
    void noPingPong();
    void demoCardsShowOffloadedBadge();
    void importedCardsShowOffloadedBadge();
    void screenshot();

private:
    // The conversation's row of a message (its own or a card's result), and whether it is on screen.
    QModelIndex conversationRowOf(qint64 messageId) const;
    bool onScreen(const QModelIndex &index) const;
    // Where a data point of the timeline is drawn, in its chart's viewport.
    QPoint viewportPos(const QPointF &dataPoint) const;
    qint64 shownMessage(const QModelIndex &index) const;
    const CompactionRecord *recordWithOffloads() const;
    const OffloadRow &middleOffload() const;

    QTemporaryDir m_dir;
    LoadedSession m_session;
    std::unique_ptr<MainWindow> m_window;
};

void TestLinkedSelection::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const DemoSession::Result demo = DemoSession::ensure(m_dir.filePath(u"demo"_s));
    QVERIFY2(demo.ok, qPrintable(demo.error));
    QString error;
    QVERIFY2(SessionLoader::loadNow(demo.databasePath, demo.sessionId, &m_session, &error), qPrintable(error));
    QVERIFY(m_session.requestCount() > 100);
    QVERIFY(!m_session.overlays.offloads.isEmpty());
}

void TestLinkedSelection::init()
{
    m_window = std::make_unique<MainWindow>();
    m_window->resize(1400, 900);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window.get()));
    m_window->showSession(m_session);
    m_window->conversationView()->ensureVisibleLayouts();
}

void TestLinkedSelection::cleanup()
{
    m_window.reset();
}

QModelIndex TestLinkedSelection::conversationRowOf(qint64 messageId) const
{
    const ConversationModel *model = m_window->conversationModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row);
        if (index.data(ConversationModel::MessageIdRole).toLongLong() == messageId
            || index.data(ConversationModel::ResultMessageIdRole).toLongLong() == messageId)
            return index;
    }
    return {};
}

QPoint TestLinkedSelection::viewportPos(const QPointF &dataPoint) const
{
    const TimelineChart *chart = m_window->timelinePanel()->chart();
    const TimelineMarkerLayer *layer = chart->markerLayer();
    return chart->mapFromScene(layer->mapToScene(layer->mapToLayer(dataPoint)));
}

bool TestLinkedSelection::onScreen(const QModelIndex &index) const
{
    const ConversationView *view = m_window->conversationView();
    return index.isValid() && view->viewport()->rect().intersects(view->visualRect(index));
}

qint64 TestLinkedSelection::shownMessage(const QModelIndex &index) const
{
    const qint64 result = index.data(ConversationModel::ResultMessageIdRole).toLongLong();
    return result != 0 ? result : index.data(ConversationModel::MessageIdRole).toLongLong();
}

const CompactionRecord *TestLinkedSelection::recordWithOffloads() const
{
    // One from the first half, so the conversation has to scroll a long way up to its marker.
    for (const CompactionRecord &r : m_session.records)
        if (r.tier != Tier::None && r.offloaded.size() >= 2 && r.requestIndex < m_session.requestCount() / 2)
            return &r;
    return nullptr;
}

const OffloadRow &TestLinkedSelection::middleOffload() const
{
    static QList<OffloadRow> rows;
    rows = m_session.offloadRows();
    return rows.at(rows.size() / 2);
}

void TestLinkedSelection::mappingRules()
{
    SelectionLink link(&m_session);
    // Request i saw history[0, end(i)) and was answered by history[end(i)].
    const int r = m_session.requestCount() / 3;
    const qsizetype end = m_session.historyEndOf(r);
    QVERIFY(end < m_session.history.size());
    const qint64 answer = m_session.history.at(end).id;
    QCOMPARE(link.messageOfRequest(r), answer);
    QCOMPARE(link.requestOfMessage(answer), r);
    // The last message the request sent belongs to it too (it was first sent then, or answered the one before).
    const int owner = link.requestOfMessage(m_session.history.at(end - 1).id);
    QVERIFY(owner <= r);
    QVERIFY(m_session.historyEndOf(owner) >= end - 1);
    QCOMPARE(link.requestOfMessage(-5), -1);

    QSignalSpy requests(&link, &SelectionLink::requestChanged);
    QSignalSpy messages(&link, &SelectionLink::messageChanged);
    link.selectRequest(r);
    QCOMPARE(requests.size(), 1);
    QCOMPARE(messages.size(), 1);
    QCOMPARE(messages.at(0).at(0).toLongLong(), answer);
    // The same choice again changes nothing and says nothing.
    link.selectRequest(r);
    QCOMPARE(requests.size(), 1);
    // A message of that request keeps the request when chosen inside it (the Context dock).
    link.selectMessageInRequest(m_session.history.at(1).id);
    QCOMPARE(requests.size(), 1);
    QCOMPARE(link.current().requestIndex, r);
    QCOMPARE(link.current().messageId, m_session.history.at(1).id);
    // ...and moves it when chosen anywhere else.
    link.selectMessage(m_session.history.at(1).id);
    QCOMPARE(requests.size(), 2);
    QCOMPARE(link.current().requestIndex, 0);
}

void TestLinkedSelection::timelinePoint()
{
    // A request in the first half with no compaction before it (no marker on its point), on the sent line.
    int request = m_session.requestCount() / 3;
    while (m_session.recordFor(request))
        ++request;
    TimelineChart *chart = m_window->timelinePanel()->chart();
    chart->refreshNow();
    QPointF point(-1, -1);
    for (const QPointF &p : chart->linePoints(TimelineChart::Line::Sent))
        if (int(std::lround(p.x())) == request)
            point = p;
    QVERIFY(point.x() >= 0);
    QVERIFY(m_window->conversationView()->isFollowingBottom()); // a session opens at its end
    QSignalSpy chosen(m_window->timelinePanel(), &TimelinePanel::requestChosen);
    QSignalSpy compactions(m_window->timelinePanel(), &TimelinePanel::compactionChosen);
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, viewportPos(point));
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(compactions.size(), 0);

    QCOMPARE(m_window->selectedRequest(), request);
    QCOMPARE(chart->selectedRequest(), request);
    QVERIFY(m_window->contextPanel()->summaryText().contains(u"Request %1:"_s.arg(request)));
    // The conversation shows the answer to that request, far above where it was.
    const qint64 answer = m_window->selection()->messageOfRequest(request);
    const QModelIndex current = m_window->conversationView()->currentIndex();
    QVERIFY(current.isValid());
    QCOMPARE(current, conversationRowOf(answer));
    QVERIFY(onScreen(current));
    QVERIFY(!m_window->conversationView()->isFollowingBottom());
}

void TestLinkedSelection::timelineMarker()
{
    const CompactionRecord *record = recordWithOffloads();
    QVERIFY(record);
    TimelineChart *chart = m_window->timelinePanel()->chart();
    chart->refreshNow();
    QPointF marker(-1, -1);
    for (const QPointF &p : chart->markerPoints(record->tier, false))
        if (int(std::lround(p.x())) == record->requestIndex)
            marker = p;
    QVERIFY(marker.x() >= 0);
    // Text typed into the dock's filter does not hide what the compaction offloaded.
    m_window->offloadsPanel()->findChild<QLineEdit *>(u"offloadsFilter"_s)->setText(u"no such tool"_s);
    QSignalSpy chosen(m_window->timelinePanel(), &TimelinePanel::compactionChosen);
    QTest::mouseClick(chart->viewport(), Qt::LeftButton, {}, viewportPos(marker));
    QCOMPARE(chosen.size(), 1);

    QCOMPARE(m_window->selectedRequest(), record->requestIndex);
    QCOMPARE(m_window->selection()->current().focus, Selection::Focus::Record);
    // The conversation shows the compaction's marker.
    const QModelIndex current = m_window->conversationView()->currentIndex();
    QCOMPARE(ConversationRowKind(current.data(ConversationModel::KindRole).toInt()), ConversationRowKind::Compaction);
    QCOMPARE(current.data(ConversationModel::RecordIdRole).toString(), record->id);
    QVERIFY(onScreen(current));
    // The Offloads dock lists what it offloaded, and says so.
    OffloadsPanel *offloads = m_window->offloadsPanel();
    QVERIFY(offloads->filtersByCompaction());
    QSet<QString> callIds;
    for (const OffloadEntry &e : record->offloaded)
        callIds.insert(e.callId);
    QCOMPARE(offloads->proxyModel()->rowCount(), callIds.size());
    for (int row = 0; row < offloads->proxyModel()->rowCount(); ++row)
        QVERIFY(callIds.contains(offloads->proxyModel()->index(row, 0).data(OffloadListModel::CallIdRole).toString()));
    QVERIFY(offloads->compactionFilterText().contains(QString::number(record->requestIndex)));
    QVERIFY(offloads->compactionFilterText().contains(QString::number(record->offloaded.size())));
    QVERIFY(callIds.contains(offloads->currentCallId()));
    // "Show all" lists every result again.
    offloads->findChild<QToolButton *>(u"offloadsShowAllButton"_s)->click();
    QVERIFY(!offloads->filtersByCompaction());
    QCOMPARE(offloads->proxyModel()->rowCount(), m_session.offloadRows().size());

    // A what-if marker names no record: only its request is chosen.
    chosen.clear();
    Q_EMIT chart->markerLayer()->clicked(QPointF(record->requestIndex, -7.0));
    QCOMPARE(chosen.size(), 0);
}

void TestLinkedSelection::compactionsRow()
{
    const CompactionRecord *record = recordWithOffloads();
    QVERIFY(record);
    CompactionsPanel *panel = m_window->compactionsPanel();
    QTableView *table = panel->table();
    const int sourceRow = int(record - m_session.records.constData());
    const QModelIndex index = panel->filter()->mapFromSource(panel->filter()->sourceModel()->index(sourceRow, 0));
    QVERIFY(index.isValid());
    m_window->dock(u"CompactionsDock"_s)->raise();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(index).center());

    QCOMPARE(m_window->selectedRequest(), record->requestIndex);
    QCOMPARE(m_window->timelinePanel()->chart()->selectedRequest(), record->requestIndex);
    QVERIFY(m_window->contextPanel()->summaryText().contains(u"Request %1:"_s.arg(record->requestIndex)));
    const QModelIndex current = m_window->conversationView()->currentIndex();
    QCOMPARE(current.data(ConversationModel::RecordIdRole).toString(), record->id);
    QVERIFY(onScreen(current));
    QVERIFY(m_window->offloadsPanel()->filtersByCompaction());
    QVERIFY(panel->detailText().contains(u"compaction before request %1"_s.arg(record->requestIndex)));
}

void TestLinkedSelection::anchorsCell()
{
    // The first compaction that wrote anchors: a cell of its column.
    const QList<AnchorSnapshot> snapshots = m_session.anchorSnapshots();
    QVERIFY(!snapshots.isEmpty());
    const AnchorSnapshot &first = snapshots.constFirst();
    QTableView *table = m_window->anchorsPanel()->table();
    const auto *model = static_cast<const AnchorHistoryModel *>(table->model());
    const int column = model->columnForRecord(first.recordId);
    QVERIFY(column >= 0);
    table->setCurrentIndex(model->index(2, column));

    QCOMPARE(m_window->selectedRequest(), first.requestIndex);
    QCOMPARE(m_window->selection()->current().recordId, first.recordId);
    QCOMPARE(m_window->compactionsPanel()->table()->currentIndex().data(CompactionLogModel::RecordIdRole).toString(), first.recordId);
    const QModelIndex current = m_window->conversationView()->currentIndex();
    QCOMPARE(current.data(ConversationModel::RecordIdRole).toString(), first.recordId);
    QVERIFY(onScreen(current));
    // The dock keeps the row the user picked.
    QCOMPARE(table->currentIndex(), model->index(2, column));
}

void TestLinkedSelection::anchorItemSourceLink()
{
    // The demo's items: some dropped by a later compaction, some with the message they came from.
    const QList<LineageItem> &items = m_session.anchorLineage;
    QVERIFY(!items.isEmpty());
    QVERIFY(std::any_of(items.cbegin(), items.cend(), [](const LineageItem &i) { return i.isDropped(); }));
    const auto sourced = std::find_if(items.cbegin(), items.cend(), [](const LineageItem &i) { return i.sourceMessageId > 0; });
    QVERIFY(sourced != items.cend());
    AnchorLineageView *view = m_window->anchorsPanel()->lineageView();
    const auto *model = static_cast<const AnchorItemsModel *>(view->tree()->model());
    const int item = int(sourced - items.cbegin());

    // Choosing the item selects the compaction that added it; its link, the message it came from.
    view->tree()->setCurrentIndex(model->indexOfItem(item));
    const QString recordId = m_session.anchorSnapshots().at(sourced->addedAt).recordId;
    QCOMPARE(m_window->selection()->current().recordId, recordId);
    QVERIFY(view->lineageHtml().contains(u"message #%1"_s.arg(sourced->sourceMessageId)));
    Q_EMIT view->findChild<QTextBrowser *>(u"AnchorLineage"_s)->anchorClicked(QUrl(u"message:%1"_s.arg(sourced->sourceMessageId)));
    QCOMPARE(m_window->selection()->current().messageId, sourced->sourceMessageId);
    QCOMPARE(m_window->selectedRequest(), m_window->selection()->requestOfMessage(sourced->sourceMessageId));
    const QModelIndex current = m_window->conversationView()->currentIndex();
    QCOMPARE(current, conversationRowOf(sourced->sourceMessageId));
    QVERIFY(onScreen(current));
}

void TestLinkedSelection::contextDockMessage()
{
    const int request = m_session.requestCount() - 1;
    m_window->selectRequest(request - 1);
    ContextPanel *context = m_window->contextPanel();
    QTableView *history = context->historyTable();
    // An offloaded result the request saw, a third of the way into the session.
    const OffloadRow &offload = middleOffload();
    const int row = context->historyModel()->rowForMessageId(offload.entry.messageId);
    QVERIFY(row >= 0);
    const QModelIndex index = context->historyModel()->index(row, 0);
    history->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);

    // The request stays; the message is selected everywhere.
    QCOMPARE(m_window->selectedRequest(), request - 1);
    QCOMPARE(m_window->selection()->current().messageId, offload.entry.messageId);
    const QModelIndex current = m_window->conversationView()->currentIndex();
    QCOMPARE(current.data(ConversationModel::ResultMessageIdRole).toLongLong(), offload.entry.messageId);
    QVERIFY(onScreen(current));
    QCOMPARE(m_window->offloadsPanel()->currentCallId(), offload.entry.callId);
    QCOMPARE(history->currentIndex().row(), row); // not moved by the link

    // An item that was sent: the checkpoint of the request after a Full compaction stands for the
    // messages it summarised; the first of them is chosen, the dock keeps showing the checkpoint.
    const auto full = std::find_if(m_session.records.cbegin(), m_session.records.cend(),
                                   [](const CompactionRecord &r) { return r.tier == Tier::Full; });
    m_window->selectRequest(full->requestIndex);
    QTableView *sent = context->viewTable();
    const QModelIndex checkpoint = context->viewModel()->index(1, 0);
    QCOMPARE(ViewItem::Kind(checkpoint.data(ContextViewModel::KindRole).toInt()), ViewItem::Kind::Checkpoint);
    sent->selectionModel()->setCurrentIndex(checkpoint, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    const qint64 from = checkpoint.data(ContextViewModel::CoversFromRole).toLongLong();
    QVERIFY(from > 0);
    QCOMPARE(m_window->selectedRequest(), full->requestIndex);
    QCOMPARE(m_window->selection()->current().messageId, from);
    QCOMPARE(context->detailText(), checkpoint.data(ContextViewModel::FullTextRole).toString());
    QCOMPARE(m_window->conversationView()->currentIndex(), conversationRowOf(from));
    QVERIFY(onScreen(m_window->conversationView()->currentIndex()));
}

void TestLinkedSelection::offloadsShowInConversation()
{
    const OffloadRow &offload = middleOffload();
    OffloadsPanel *offloads = m_window->offloadsPanel();
    QSignalSpy shown(m_window->selection(), &SelectionLink::changed);
    QVERIFY(offloads->showCallId(offload.entry.callId));
    QCOMPARE(shown.size(), 0); // opening it in the dock chooses nothing
    offloads->findChild<QToolButton *>(u"locateMessageButton"_s)->click();

    const QModelIndex current = m_window->conversationView()->currentIndex();
    QCOMPARE(current.data(ConversationModel::ResultMessageIdRole).toLongLong(), offload.entry.messageId);
    QVERIFY(current.data(ConversationModel::OffloadedRole).toBool());
    QVERIFY(onScreen(current));
    const int request = m_window->selection()->requestOfMessage(offload.entry.messageId);
    QCOMPARE(m_window->selectedRequest(), request);
    QCOMPARE(m_window->timelinePanel()->chart()->selectedRequest(), request);
    const QModelIndex contextRow = m_window->contextPanel()->historyTable()->currentIndex();
    QCOMPARE(contextRow.data(ContextHistoryModel::MessageIdRole).toLongLong(), offload.entry.messageId);
    QCOMPARE(offloads->currentCallId(), offload.entry.callId);
}

void TestLinkedSelection::offloadsDoubleClick()
{
    const QList<OffloadRow> rows = m_session.offloadRows();
    const OffloadRow &offload = rows.at(1);
    OffloadsPanel *offloads = m_window->offloadsPanel();
    m_window->dock(u"OffloadsDock"_s)->raise();
    QVERIFY(offloads->showCallId(offload.entry.callId));
    QTreeView *view = offloads->view();
    const QModelIndex index = view->currentIndex();
    view->scrollTo(index);
    const QPoint centre = view->visualRect(index).center();
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, centre);
    QTest::mouseDClick(view->viewport(), Qt::LeftButton, {}, centre);

    const QModelIndex current = m_window->conversationView()->currentIndex();
    QCOMPARE(current.data(ConversationModel::ResultMessageIdRole).toLongLong(), offload.entry.messageId);
    QVERIFY(onScreen(current));
    QCOMPARE(m_window->selectedRequest(), m_window->selection()->requestOfMessage(offload.entry.messageId));
}

void TestLinkedSelection::conversationRow()
{
    // A user message in the first third of the session.
    ConversationView *view = m_window->conversationView();
    const ConversationModel *model = m_window->conversationModel();
    QModelIndex target;
    for (int row = model->rowCount() / 3; row < model->rowCount() && !target.isValid(); ++row)
        if (ConversationRowKind(model->index(row).data(ConversationModel::KindRole).toInt()) == ConversationRowKind::User)
            target = model->index(row);
    QVERIFY(target.isValid());
    view->scrollTo(target, QAbstractItemView::PositionAtTop);
    view->ensureVisibleLayouts();
    view->scrollTo(target, QAbstractItemView::PositionAtTop);
    QVERIFY(onScreen(target));
    const QRect rect = view->visualRect(target);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, QPoint(rect.center().x(), rect.top() + std::min(rect.height() / 2, 12)));

    const qint64 message = target.data(ConversationModel::MessageIdRole).toLongLong();
    const int request = m_window->selection()->requestOfMessage(message);
    QVERIFY(request >= 0);
    QCOMPARE(m_window->selection()->current().messageId, message);
    QCOMPARE(m_window->selectedRequest(), request);
    QCOMPARE(m_window->timelinePanel()->chart()->selectedRequest(), request);
    QVERIFY(m_window->contextPanel()->summaryText().contains(u"Request %1:"_s.arg(request)));
    QCOMPARE(m_window->contextPanel()->historyTable()->currentIndex().data(ContextHistoryModel::MessageIdRole).toLongLong(), message);
    if (const CompactionRecord *record = m_session.recordFor(request))
        QCOMPARE(m_window->compactionsPanel()->table()->currentIndex().data(CompactionLogModel::RecordIdRole).toString(), record->id);

    // The keyboard chooses too: Down moves to the next row and everything follows it.
    QTest::keyClick(view, Qt::Key_Down);
    const QModelIndex next = view->currentIndex();
    QCOMPARE(next.row(), target.row() + 1);
    if (shownMessage(next) != 0)
        QCOMPARE(m_window->selection()->current().messageId, shownMessage(next));
}

void TestLinkedSelection::conversationMarker()
{
    const CompactionRecord *record = recordWithOffloads();
    QVERIFY(record);
    ConversationView *view = m_window->conversationView();
    const QModelIndexList markers = view->model()->match(view->model()->index(0, 0), ConversationModel::RecordIdRole,
                                                         record->id, 1, Qt::MatchExactly);
    QCOMPARE(markers.size(), 1);
    const QModelIndex marker = markers.constFirst();
    view->scrollTo(marker, QAbstractItemView::PositionAtCenter);
    view->ensureVisibleLayouts();
    view->scrollTo(marker, QAbstractItemView::PositionAtCenter);
    QVERIFY(onScreen(marker));
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(marker).center());

    QCOMPARE(m_window->selectedRequest(), record->requestIndex);
    QCOMPARE(m_window->compactionsPanel()->table()->currentIndex().data(CompactionLogModel::RecordIdRole).toString(), record->id);
    QVERIFY(m_window->offloadsPanel()->filtersByCompaction());
    QCOMPARE(view->currentIndex(), marker);
}

void TestLinkedSelection::noPingPong()
{
    // Following a choice, no view reports one back: one change per choice, whatever the path.
    QSignalSpy changes(m_window->selection(), &SelectionLink::changed);
    m_window->selectRequest(42);
    QCOMPARE(changes.size(), 1);
    const CompactionRecord *record = recordWithOffloads();
    m_window->selection()->selectRecord(record->id);
    QCOMPARE(changes.size(), 2);
    m_window->selection()->selectMessage(middleOffload().entry.messageId);
    QCOMPARE(changes.size(), 3);
    QCOMPARE(m_window->selection()->current().messageId, middleOffload().entry.messageId);
}

void TestLinkedSelection::demoCardsShowOffloadedBadge()
{
    // Every result the replay offloaded has a card, and each of those cards shows the badge.
    const QSet<qint64> offloaded = m_session.offloadedMessageIds();
    const ConversationModel *model = m_window->conversationModel();
    int badges = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row);
        const bool expected = offloaded.contains(index.data(ConversationModel::ResultMessageIdRole).toLongLong());
        QCOMPARE(index.data(ConversationModel::OffloadedRole).toBool(), expected);
        badges += expected ? 1 : 0;
    }
    QCOMPARE(badges, offloaded.size());
}

void TestLinkedSelection::importedCardsShowOffloadedBadge()
{
    const QString workspace = m_dir.filePath(u"codex-ws"_s);
    QVERIFY(QDir().mkpath(workspace));
    SessionStore store;
    QString error;
    const QString database = m_dir.filePath(u"codex.db"_s);
    QVERIFY2(store.open(database, &error), qPrintable(error));
    SessionImporter::Options options;
    options.workspace = workspace;
    options.replay = true;
    options.replayPolicy = DemoSession::policy();
    options.replayPolicy.contextWindow = 16000;
    options.replayOverheadTokens = 0;
    options.auditPath = m_dir.filePath(u"codex-audit.jsonl"_s);
    const auto imported = SessionImporter::importFile(
        store, QStringLiteral(WATERLINE_TEST_DATA) + u"/replay/codex/rollout-2026-05-11T11-26-55-019e1625-789d-76c0-80ab-3724b5ddb799.jsonl"_s,
        options);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    LoadedSession session;
    QVERIFY2(SessionLoader::loadNow(database, imported.sessionId, &session, &error), qPrintable(error));
    const QSet<qint64> offloaded = session.offloadedMessageIds();
    QVERIFY(!offloaded.isEmpty());

    m_window->showSession(session);
    const ConversationModel *model = m_window->conversationModel();
    QSet<qint64> badged;
    for (int row = 0; row < model->rowCount(); ++row) {
        const QModelIndex index = model->index(row);
        if (index.data(ConversationModel::OffloadedRole).toBool())
            badged.insert(index.data(ConversationModel::ResultMessageIdRole).toLongLong());
    }
    QCOMPARE(badged, offloaded);
}

// The window after a compaction was chosen in the Compactions dock, for a person to look at.
void TestLinkedSelection::screenshot()
{
    const CompactionRecord *record = recordWithOffloads();
    QVERIFY(record);
    m_window->dock(u"CompactionsDock"_s)->raise();
    m_window->dock(u"OffloadsDock"_s)->raise();
    CompactionsPanel *panel = m_window->compactionsPanel();
    const int sourceRow = int(record - m_session.records.constData());
    panel->table()->setCurrentIndex(panel->filter()->mapFromSource(panel->filter()->sourceModel()->index(sourceRow, 0)));
    QCOMPARE(m_window->conversationView()->currentIndex().data(ConversationModel::RecordIdRole).toString(), record->id);
    m_window->conversationView()->ensureVisibleLayouts();
    QVERIFY(m_window->grab().toImage().save(QDir::temp().filePath(u"waterline-linked-selection.png"_s)));
    // And an offloaded result shown in the conversation, its card with the badge.
    m_window->offloadsPanel()->showCallId(record->offloaded.constFirst().callId);
    m_window->offloadsPanel()->findChild<QToolButton *>(u"locateMessageButton"_s)->click();
    QVERIFY(m_window->conversationView()->currentIndex().data(ConversationModel::OffloadedRole).toBool());
    m_window->conversationView()->ensureVisibleLayouts();
    QVERIFY(m_window->grab().toImage().save(QDir::temp().filePath(u"waterline-linked-offload.png"_s)));
}

QTEST_MAIN(TestLinkedSelection)
#include "tst_linkedselection.moc"
