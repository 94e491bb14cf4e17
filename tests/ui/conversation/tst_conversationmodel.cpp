#include "compaction/CompactionRecord.h"
#include "conversation/ConversationModel.h"
#include "model/Message.h"

#include <QAbstractItemModelTester>
#include <QLocale>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace wl;
using namespace Qt::StringLiterals;

using Kinds = QList<int>;

namespace {

ToolCall call(const QString &id, const QString &name, const QString &arguments = u"{}"_s)
{
    return ToolCall{id, name, arguments, true};
}

Kinds kindsOf(const ConversationModel &model)
{
    Kinds kinds;
    for (int row = 0; row < model.rowCount(); ++row)
        kinds.append(model.index(row).data(ConversationModel::KindRole).toInt());
    return kinds;
}

int k(ConversationRowKind kind)
{
    return int(kind);
}

// Every test checks the model's invariants through all its signals.
struct Fixture
{
    ConversationModel model;
    QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::QtTest};
};

} // namespace

class TestConversationModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void appendMessages_data();
    void appendMessages();
    void appendIsOneInsert();
    void resultAttachesToEarlierCard();
    void streamingChangesOneRow();
    void finishStreamWithOnlyCallsDropsEmptyRow();
    void toolRunningThenResult();
    void explicitDurationWins();
    void unknownCallIdIsRefused();
    void longResultKeepsPreview();
    void offloadedFlag_data();
    void offloadedFlag();
    void transcriptShowsOffloadedResults();
    void liveResultFollowsLaterOffload();
    void compactionMarker();
    void compactionMarkerFromRecord();
    void sourceAgentsCompactionMarker();
    void transcriptPlacesMarkers();
    void errors();
    void approvals_data();
    void approvals();
    void progressStaysLast();
    void progressLabels_data();
    void progressLabels();
    void prependKeepsLookups();
    void expandedOnlyForCards();
    void clearEmpties();
    void itemIdsAreStableAndUnique();
};

void TestConversationModel::appendMessages_data()
{
    QTest::addColumn<QList<Message>>("messages");
    QTest::addColumn<Kinds>("kinds");

    using K = ConversationRowKind;
    QTest::newRow("user and assistant") << QList<Message>{Message::user(u"hi"_s), Message::assistant(u"**hello**"_s)}
                                        << Kinds{k(K::User), k(K::Assistant)};
    QTest::newRow("system prompt is not shown")
        << QList<Message>{Message::system(u"You are helpful"_s), Message::user(u"hi"_s)} << Kinds{k(K::User)};
    QTest::newRow("later system message is a note")
        << QList<Message>{Message::user(u"hi"_s), Message::system(u"note"_s)} << Kinds{k(K::User), k(K::System)};
    QTest::newRow("calls become cards, results attach")
        << QList<Message>{Message::user(u"list"_s),
                          Message::assistant({}, {call(u"c1"_s, u"bash"_s), call(u"c2"_s, u"read_file"_s)}),
                          Message::toolResult(u"c1"_s, u"a\nb"_s), Message::toolResult(u"c2"_s, u"nope"_s, true)}
        << Kinds{k(K::User), k(K::ToolCall), k(K::ToolCall)};
    QTest::newRow("text and a call")
        << QList<Message>{Message::assistant(u"Let me look"_s, {call(u"c1"_s, u"bash"_s)})}
        << Kinds{k(K::Assistant), k(K::ToolCall)};
    QTest::newRow("orphan result gets its own card")
        << QList<Message>{Message::toolResult(u"cx"_s, u"out"_s)} << Kinds{k(K::ToolCall)};
    QTest::newRow("checkpoint is a system note")
        << QList<Message>{Message::user(u"[Context Compaction]\n## Anchors"_s)} << Kinds{k(K::System)};
}

void TestConversationModel::appendMessages()
{
    QFETCH(QList<Message>, messages);
    QFETCH(Kinds, kinds);
    Fixture f;
    f.model.appendMessages(messages);
    QCOMPARE(kindsOf(f.model), kinds);

    // Every result in the input ended up on a card with its status.
    for (const Message &message : std::as_const(messages)) {
        if (!message.isToolResult())
            continue;
        const QModelIndex card = f.model.indexForCallId(message.toolCallId);
        QVERIFY(card.isValid());
        QCOMPARE(card.data(ConversationModel::TextRole).toString(), message.content);
        QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()),
                 message.isError ? ToolCallStatus::Error : ToolCallStatus::Ok);
    }
}

void TestConversationModel::appendIsOneInsert()
{
    Fixture f;
    QList<Message> messages;
    for (int i = 0; i < 10000; ++i)
        messages.append(i % 2 ? Message::assistant(u"answer %1"_s.arg(i)) : Message::user(u"question %1"_s.arg(i)));
    QSignalSpy inserted(&f.model, &QAbstractItemModel::rowsInserted);
    f.model.appendMessages(messages);
    QCOMPARE(inserted.size(), 1);
    QCOMPARE(inserted.at(0).at(1).toInt(), 0);
    QCOMPARE(inserted.at(0).at(2).toInt(), 9999);
    QCOMPARE(f.model.rowCount(), 10000);
    QCOMPARE(f.model.index(9999).data(ConversationModel::TextRole).toString(), u"answer 9999"_s);
}

void TestConversationModel::resultAttachesToEarlierCard()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"go"_s), Message::assistant({}, {call(u"c1"_s, u"bash"_s, u"{\"command\":\"ls\"}"_s)})});
    QCOMPARE(f.model.rowCount(), 2);
    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);
    QSignalSpy inserted(&f.model, &QAbstractItemModel::rowsInserted);
    f.model.appendMessages({Message::toolResult(u"c1"_s, u"file.txt"_s)});
    QCOMPARE(f.model.rowCount(), 2);
    QCOMPARE(inserted.size(), 0);
    QCOMPARE(changed.size(), 1);
    QCOMPARE(changed.at(0).at(0).value<QModelIndex>().row(), 1);
    const QModelIndex card = f.model.index(1);
    QCOMPARE(card.data(ConversationModel::ToolNameRole).toString(), u"bash"_s);
    QCOMPARE(card.data(ConversationModel::ToolArgumentsRole).toString(), u"{\"command\":\"ls\"}"_s);
    QCOMPARE(card.data(ConversationModel::TextRole).toString(), u"file.txt"_s);
    QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Ok);
}

void TestConversationModel::streamingChangesOneRow()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s), Message::assistant(u"earlier"_s)});
    const int row = f.model.beginAssistantStream();
    QCOMPARE(row, 2);
    QVERIFY(f.model.isStreaming());
    QVERIFY(f.model.index(row).data(ConversationModel::StreamingRole).toBool());

    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);
    const QStringList pieces{u"Hel"_s, u"lo, "_s, u"**world**"_s};
    for (const QString &piece : pieces)
        f.model.appendStreamText(piece);
    QCOMPARE(changed.size(), pieces.size());
    for (const QList<QVariant> &signal : std::as_const(changed)) {
        QCOMPARE(signal.at(0).value<QModelIndex>().row(), row);
        QCOMPARE(signal.at(1).value<QModelIndex>().row(), row);
    }
    QCOMPARE(f.model.index(row).data(ConversationModel::TextRole).toString(), pieces.join(QString()));

    Message final = Message::assistant(u"Hello, **world**!"_s, {call(u"c9"_s, u"grep"_s)});
    final.id = 77;
    f.model.finishAssistantStream(final);
    QVERIFY(!f.model.isStreaming());
    QCOMPARE(f.model.rowCount(), 4);
    QVERIFY(!f.model.index(row).data(ConversationModel::StreamingRole).toBool());
    QCOMPARE(f.model.index(row).data(ConversationModel::TextRole).toString(), final.content);
    QCOMPARE(f.model.index(row).data(ConversationModel::MessageIdRole).toLongLong(), 77);
    QCOMPARE(f.model.indexForCallId(u"c9"_s).row(), 3);
}

void TestConversationModel::finishStreamWithOnlyCallsDropsEmptyRow()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s)});
    f.model.beginAssistantStream();
    f.model.finishAssistantStream(Message::assistant({}, {call(u"a"_s, u"bash"_s), call(u"b"_s, u"bash"_s)}));
    QCOMPARE(kindsOf(f.model), (Kinds{k(ConversationRowKind::User), k(ConversationRowKind::ToolCall),
                                      k(ConversationRowKind::ToolCall)}));
    QCOMPARE(f.model.indexForCallId(u"a"_s).row(), 1);
    QCOMPARE(f.model.indexForCallId(u"b"_s).row(), 2);
}

void TestConversationModel::toolRunningThenResult()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    const QModelIndex card = f.model.indexForCallId(u"c1"_s);
    QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Pending);
    QVERIFY(f.model.setToolRunning(u"c1"_s));
    QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Running);
    QVERIFY(card.data(ConversationModel::StartedAtRole).toDateTime().isValid());
    QCOMPARE(card.data(ConversationModel::ToolDurationRole).toLongLong(), -1);
    QTest::qWait(20);
    QVERIFY(f.model.setToolResult(u"c1"_s, {ToolCallStatus::Ok, u"done"_s, -1, false}));
    QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Ok);
    QVERIFY(card.data(ConversationModel::ToolDurationRole).toLongLong() >= 20);
    QCOMPARE(card.data(ConversationModel::TextRole).toString(), u"done"_s);
}

void TestConversationModel::explicitDurationWins()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    QVERIFY(f.model.setToolResult(u"c1"_s, {ToolCallStatus::Denied, u"denied by user"_s, 1234, false}));
    const QModelIndex card = f.model.indexForCallId(u"c1"_s);
    QCOMPARE(card.data(ConversationModel::ToolDurationRole).toLongLong(), 1234);
    QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Denied);
}

void TestConversationModel::unknownCallIdIsRefused()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);
    QVERIFY(!f.model.setToolRunning(u"nope"_s));
    QVERIFY(!f.model.setToolResult(u"nope"_s, {}));
    QCOMPARE(changed.size(), 0);
}

void TestConversationModel::longResultKeepsPreview()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    const QString big(ConversationModel::kResultPreviewChars * 3, u'x');
    f.model.setToolResult(u"c1"_s, {ToolCallStatus::Ok, big, 5, false});
    const QModelIndex card = f.model.indexForCallId(u"c1"_s);
    QCOMPARE(card.data(ConversationModel::TextRole).toString().size(), ConversationModel::kResultPreviewChars);
    QCOMPARE(card.data(ConversationModel::ToolResultLengthRole).toLongLong(), big.size());
    QVERIFY(card.data(ConversationModel::ToolResultTruncatedRole).toBool());
}

void TestConversationModel::offloadedFlag_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("flag");
    QTest::addColumn<bool>("expected");
    QTest::newRow("plain") << u"output"_s << false << false;
    QTest::newRow("placeholder") << u"[offloaded: .waterline/tool_results/s/c1.txt | 3 lines, 20 bytes]\nPreview"_s
                                 << false << true;
    QTest::newRow("flag") << u"output"_s << true << true;
}

void TestConversationModel::offloadedFlag()
{
    QFETCH(QString, text);
    QFETCH(bool, flag);
    QFETCH(bool, expected);
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    f.model.setToolResult(u"c1"_s, {ToolCallStatus::Ok, text, 1, flag});
    QCOMPARE(f.model.indexForCallId(u"c1"_s).data(ConversationModel::OffloadedRole).toBool(), expected);
}

// A stored session keeps each result's full text; compaction's offloads are overlays by message id.
void TestConversationModel::transcriptShowsOffloadedResults()
{
    Fixture f;
    QList<Message> history{Message::user(u"look"_s), Message::assistant({}, {call(u"c1"_s, u"read_file"_s), call(u"c2"_s, u"bash"_s)}),
                           Message::toolResult(u"c1"_s, u"a long file"_s), Message::toolResult(u"c2"_s, u"short"_s),
                           Message::toolResult(u"c9"_s, u"an orphan result"_s)};
    for (qsizetype i = 0; i < history.size(); ++i)
        history[i].id = 10 + i;
    f.model.setOffloadedResults({12, 14});
    f.model.setTranscript(history, {});
    const QModelIndex first = f.model.indexForCallId(u"c1"_s);
    const QModelIndex second = f.model.indexForCallId(u"c2"_s);
    const QModelIndex orphan = f.model.indexForCallId(u"c9"_s);
    QVERIFY(first.data(ConversationModel::OffloadedRole).toBool());
    QVERIFY(!second.data(ConversationModel::OffloadedRole).toBool());
    QVERIFY(orphan.data(ConversationModel::OffloadedRole).toBool());
    QCOMPARE(first.data(ConversationModel::ResultMessageIdRole).toLongLong(), qint64(12));
    QCOMPARE(first.data(ConversationModel::MessageIdRole).toLongLong(), qint64(11));

    // A refresh that knows of a later offload (a Warn compaction) marks that card too, and only it.
    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);
    f.model.setOffloadedResults({12, 13, 14});
    QVERIFY(second.data(ConversationModel::OffloadedRole).toBool());
    QCOMPARE(changed.size(), 1);
    // An undone compaction takes it back.
    f.model.setOffloadedResults({12, 14});
    QVERIFY(!second.data(ConversationModel::OffloadedRole).toBool());
}

void TestConversationModel::liveResultFollowsLaterOffload()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    ToolCallOutcome outcome{ToolCallStatus::Ok, u"output"_s, 5, false};
    outcome.messageId = 77;
    QVERIFY(f.model.setToolResult(u"c1"_s, outcome));
    QVERIFY(!f.model.indexForCallId(u"c1"_s).data(ConversationModel::OffloadedRole).toBool());
    f.model.setOffloadedResults({77});
    QVERIFY(f.model.indexForCallId(u"c1"_s).data(ConversationModel::OffloadedRole).toBool());
    // A result the agent reported without its message id keeps what it said.
    f.model.appendMessages({Message::assistant({}, {call(u"c2"_s, u"bash"_s)})});
    QVERIFY(f.model.setToolResult(u"c2"_s, {ToolCallStatus::Ok, u"big"_s, 5, true}));
    f.model.setOffloadedResults({});
    QVERIFY(f.model.indexForCallId(u"c2"_s).data(ConversationModel::OffloadedRole).toBool());
    QVERIFY(!f.model.indexForCallId(u"c1"_s).data(ConversationModel::OffloadedRole).toBool());
}

void TestConversationModel::compactionMarker()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s)});
    const int row = f.model.addCompactionMarker({u"rec-1"_s, Tier::Full, 120000, 30000, 3, 5});
    QCOMPARE(row, 1);
    const QModelIndex index = f.model.index(row);
    QCOMPARE(ConversationRowKind(index.data(ConversationModel::KindRole).toInt()), ConversationRowKind::Compaction);
    QCOMPARE(index.data(ConversationModel::RecordIdRole).toString(), u"rec-1"_s);
    QCOMPARE(Tier(index.data(ConversationModel::TierRole).toInt()), Tier::Full);
    QCOMPARE(index.data(ConversationModel::TokensBeforeRole).toLongLong(), 120000);
    QCOMPARE(index.data(ConversationModel::TokensAfterRole).toLongLong(), 30000);
    QCOMPARE(index.data(ConversationModel::AnchorsChangedRole).toInt(), 3);
    QCOMPARE(index.data(ConversationModel::OffloadCountRole).toInt(), 5);
    const QString label = index.data().toString();
    QVERIFY2(label.contains(u"Full"_s), qPrintable(label));
    QVERIFY2(label.contains(QLocale().toString(120000)), qPrintable(label));
    QVERIFY2(label.contains(QLocale().toString(30000)), qPrintable(label));
    QVERIFY2(label.contains(u"3 anchors changed"_s), qPrintable(label));
    QVERIFY2(label.contains(u"5 offloads"_s), qPrintable(label));
}

// An import's marker of the source agent's own compaction: its own label, the summary it sent
// readable as the row's text and tooltip, no record to open.
void TestConversationModel::sourceAgentsCompactionMarker()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s)});
    CompactionMarker marker;
    marker.sourceAgent = u"claude-code"_s;
    marker.tokensBefore = 155979;
    marker.summary = u"This session is being continued from a previous conversation."_s;
    const int row = f.model.addCompactionMarker(marker);
    const QModelIndex index = f.model.index(row);
    QCOMPARE(ConversationRowKind(index.data(ConversationModel::KindRole).toInt()), ConversationRowKind::Compaction);
    QCOMPARE(index.data(ConversationModel::SourceAgentRole).toString(), u"claude-code"_s);
    QCOMPARE(index.data(ConversationModel::TextRole).toString(), marker.summary);
    QCOMPARE(index.data(Qt::ToolTipRole).toString(), marker.summary);
    QVERIFY(index.data(ConversationModel::RecordIdRole).toString().isEmpty());
    const QString label = index.data().toString();
    QVERIFY2(label.contains(u"claude-code compacted its own context"_s), qPrintable(label));
    QVERIFY2(label.contains(QLocale().toString(155979)), qPrintable(label));
    QVERIFY2(!label.contains(u"anchors"_s), qPrintable(label));
    // Waterline's own markers keep their label and their record.
    const int own = f.model.addCompactionMarker({u"rec-1"_s, Tier::Soft, 1000, 500, 1, 0});
    QVERIFY(f.model.index(own).data(ConversationModel::SourceAgentRole).toString().isEmpty());
    QVERIFY(f.model.index(own).data().toString().contains(u"Soft"_s));
}

// The live agent and a reopened session show a record the same way: one conversion.
void TestConversationModel::compactionMarkerFromRecord()
{
    CompactionRecord record;
    record.id = u"rec-7"_s;
    record.tier = Tier::Emergency;
    record.tokensBefore = 190000;
    record.tokensAfter = 41000;
    record.anchorChanges = {AnchorChange::New, AnchorChange::Kept, AnchorChange::Updated, AnchorChange::Unchanged, AnchorChange::Kept};
    record.offloaded.resize(4);
    const CompactionMarker marker = ConversationModel::compactionMarker(record);
    QCOMPARE(marker.recordId, u"rec-7"_s);
    QCOMPARE(marker.tier, Tier::Emergency);
    QCOMPARE(marker.tokensBefore, qint64(190000));
    QCOMPARE(marker.tokensAfter, qint64(41000));
    QCOMPARE(marker.anchorsChanged, 2);
    QCOMPARE(marker.offloads, 4);
}

// A recorded session: each marker before the message it names, out-of-range positions clamped.
void TestConversationModel::transcriptPlacesMarkers()
{
    Fixture f;
    f.model.addError({u"old"_s, u"from the previous session"_s, false}); // replaced
    const QList<Message> history{Message::user(u"one"_s), Message::assistant(u"two"_s), Message::user(u"three"_s)};
    CompactionMarker first;
    first.recordId = u"r1"_s;
    CompactionMarker last;
    last.recordId = u"r2"_s;
    CompactionMarker beyond;
    beyond.recordId = u"r3"_s;
    f.model.setTranscript(history, {{1, first}, {3, last}, {99, beyond}});
    QCOMPARE(kindsOf(f.model), (Kinds{k(ConversationRowKind::User), k(ConversationRowKind::Compaction), k(ConversationRowKind::Assistant),
                                      k(ConversationRowKind::User), k(ConversationRowKind::Compaction), k(ConversationRowKind::Compaction)}));
    QCOMPARE(f.model.index(1).data(ConversationModel::RecordIdRole).toString(), u"r1"_s);
    QCOMPARE(f.model.index(5).data(ConversationModel::RecordIdRole).toString(), u"r3"_s);
}

void TestConversationModel::errors()
{
    Fixture f;
    const int row = f.model.addError({u"e1"_s, u"HTTP 503 from the provider"_s, true});
    const QModelIndex index = f.model.index(row);
    QCOMPARE(index.data().toString(), u"HTTP 503 from the provider"_s);
    QCOMPARE(index.data(ConversationModel::ErrorIdRole).toString(), u"e1"_s);
    QVERIFY(index.data(ConversationModel::RetryableRole).toBool());
    QVERIFY(f.model.setErrorRetryable(u"e1"_s, false));
    QVERIFY(!index.data(ConversationModel::RetryableRole).toBool());
    QVERIFY(!f.model.setErrorRetryable(u"e2"_s, false));
}

void TestConversationModel::approvals_data()
{
    QTest::addColumn<ApprovalDecision>("decision");
    QTest::addColumn<ApprovalState>("state");
    QTest::newRow("once") << ApprovalDecision::AllowOnce << ApprovalState::AllowedOnce;
    QTest::newRow("session") << ApprovalDecision::AllowForSession << ApprovalState::AllowedForSession;
    QTest::newRow("deny") << ApprovalDecision::Deny << ApprovalState::Denied;
}

void TestConversationModel::approvals()
{
    QFETCH(ApprovalDecision, decision);
    QFETCH(ApprovalState, state);
    Fixture f;
    f.model.addApprovalRequest({u"a1"_s, u"bash"_s, u"c1"_s, u"rm -rf build"_s, false});
    const QModelIndex index = f.model.indexForApproval(u"a1"_s);
    QVERIFY(index.isValid());
    QCOMPARE(index.data(ConversationModel::TextRole).toString(), u"rm -rf build"_s);
    QCOMPARE(index.data(ConversationModel::ToolNameRole).toString(), u"bash"_s);
    QCOMPARE(ApprovalState(index.data(ConversationModel::ApprovalStateRole).toInt()), ApprovalState::Pending);
    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);
    QVERIFY(f.model.resolveApproval(u"a1"_s, decision));
    QCOMPARE(changed.size(), 1);
    QCOMPARE(ApprovalState(index.data(ConversationModel::ApprovalStateRole).toInt()), state);
    QVERIFY(!f.model.resolveApproval(u"zz"_s, decision));
}

void TestConversationModel::progressStaysLast()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s)});
    QSignalSpy active(&f.model, &ConversationModel::progressChanged);
    ConversationProgress progress;
    progress.kind = ConversationProgress::Kind::Compacting;
    progress.tier = Tier::Full;
    progress.messageCount = 42;
    f.model.setProgress(progress);
    QCOMPARE(active.size(), 1);
    QVERIFY(active.at(0).at(0).toBool());
    QCOMPARE(f.model.rowCount(), 2);
    QCOMPARE(f.model.progressIndex().row(), 1);
    QVERIFY(f.model.progressIndex().data(ConversationModel::StartedAtRole).toDateTime().isValid());

    f.model.appendMessages({Message::assistant(u"a"_s)});
    f.model.addError({{}, u"x"_s, false});
    QCOMPARE(f.model.rowCount(), 4);
    QCOMPARE(f.model.progressIndex().row(), 3);
    QCOMPARE(ConversationRowKind(f.model.index(3).data(ConversationModel::KindRole).toInt()),
             ConversationRowKind::Progress);

    // Updating keeps one row.
    progress.messageCount = 10;
    f.model.setProgress(progress);
    QCOMPARE(f.model.rowCount(), 4);
    QCOMPARE(active.size(), 1);

    f.model.clearProgress();
    QCOMPARE(f.model.rowCount(), 3);
    QCOMPARE(active.size(), 2);
    QVERIFY(!active.at(1).at(0).toBool());
    QVERIFY(!f.model.progressIndex().isValid());
}

void TestConversationModel::progressLabels_data()
{
    QTest::addColumn<ConversationProgress>("progress");
    QTest::addColumn<int>("retryInMs");   // next attempt relative to "now"; ignored when compacting
    QTest::addColumn<QString>("label");
    ConversationProgress compacting;
    compacting.kind = ConversationProgress::Kind::Compacting;
    compacting.tier = Tier::Full;
    compacting.messageCount = 42;
    QTest::newRow("compacting") << compacting << 0 << u"Compacting context (Full tier, summarising 42 messages)"_s;
    compacting.tier = Tier::Soft;
    compacting.messageCount = 1;
    QTest::newRow("one message") << compacting << 0 << u"Compacting context (Soft tier, summarising 1 message)"_s;
    ConversationProgress retry;
    retry.kind = ConversationProgress::Kind::WaitingToRetry;
    retry.attempt = 2;
    QTest::newRow("retry rounds up") << retry << 3500 << u"Waiting to retry (attempt 2, next in 4 s)"_s;
    QTest::newRow("retry exact") << retry << 4000 << u"Waiting to retry (attempt 2, next in 4 s)"_s;
    retry.attempt = 5;
    QTest::newRow("retry overdue") << retry << -10000 << u"Waiting to retry (attempt 5, next in 0 s)"_s;
}

void TestConversationModel::progressLabels()
{
    QFETCH(ConversationProgress, progress);
    QFETCH(int, retryInMs);
    QFETCH(QString, label);
    const QDateTime now = QDateTime::currentDateTime();
    if (progress.kind == ConversationProgress::Kind::WaitingToRetry)
        progress.nextAttemptAt = now.addMSecs(retryInMs);
    QCOMPARE(ConversationModel::progressLabel(progress, now), label);
}

void TestConversationModel::prependKeepsLookups()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"late"_s, u"bash"_s)})});
    f.model.addApprovalRequest({u"a1"_s, u"bash"_s, u"late"_s, u"ls"_s, false});
    f.model.addError({u"e1"_s, u"boom"_s, true});
    f.model.beginAssistantStream();
    f.model.prependMessages({Message::user(u"first"_s), Message::assistant({}, {call(u"early"_s, u"grep"_s)}),
                             Message::toolResult(u"early"_s, u"match"_s)});
    QCOMPARE(f.model.rowCount(), 6);
    QCOMPARE(f.model.index(0).data(ConversationModel::TextRole).toString(), u"first"_s);
    QCOMPARE(f.model.indexForCallId(u"early"_s).row(), 1);
    QCOMPARE(f.model.indexForCallId(u"early"_s).data(ConversationModel::TextRole).toString(), u"match"_s);
    QCOMPARE(f.model.indexForCallId(u"late"_s).row(), 2);
    QCOMPARE(f.model.indexForApproval(u"a1"_s).row(), 3);
    QVERIFY(f.model.setErrorRetryable(u"e1"_s, false));
    QVERIFY(!f.model.index(4).data(ConversationModel::RetryableRole).toBool());
    // The stream row moved with the prepend.
    f.model.appendStreamText(u"tail"_s);
    QCOMPARE(f.model.index(5).data(ConversationModel::TextRole).toString(), u"tail"_s);
    QVERIFY(f.model.setToolRunning(u"late"_s));
    QCOMPARE(ToolCallStatus(f.model.index(2).data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Running);
}

void TestConversationModel::expandedOnlyForCards()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s), Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    QVERIFY(!f.model.setData(f.model.index(0), true, ConversationModel::ExpandedRole));
    QVERIFY(!f.model.setData(f.model.index(1), u"x"_s, ConversationModel::TextRole));
    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);
    QVERIFY(f.model.setData(f.model.index(1), true, ConversationModel::ExpandedRole));
    QVERIFY(f.model.index(1).data(ConversationModel::ExpandedRole).toBool());
    QCOMPARE(changed.size(), 1);
}

void TestConversationModel::clearEmpties()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s), Message::assistant({}, {call(u"c1"_s, u"bash"_s)})});
    f.model.setProgress({});
    f.model.beginAssistantStream();
    f.model.clear();
    QCOMPARE(f.model.rowCount(), 0);
    QVERIFY(!f.model.isStreaming());
    QVERIFY(!f.model.indexForCallId(u"c1"_s).isValid());
    QVERIFY(!f.model.hasProgress());
}

void TestConversationModel::itemIdsAreStableAndUnique()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"a"_s), Message::user(u"b"_s)});
    const quint64 idB = f.model.index(1).data(ConversationModel::ItemIdRole).toULongLong();
    f.model.prependMessages({Message::user(u"z"_s)});
    QCOMPARE(f.model.index(2).data(ConversationModel::ItemIdRole).toULongLong(), idB);
    f.model.setProgress({});
    QSet<quint64> ids;
    for (int row = 0; row < f.model.rowCount(); ++row)
        ids.insert(f.model.index(row).data(ConversationModel::ItemIdRole).toULongLong());
    QCOMPARE(ids.size(), f.model.rowCount());
    QVERIFY(!ids.contains(0));
}

QTEST_GUILESS_MAIN(TestConversationModel)
#include "tst_conversationmodel.moc"
