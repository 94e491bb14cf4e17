#include "conversation/ConversationDelegate.h"
#include "conversation/ConversationModel.h"
#include "conversation/ConversationView.h"
#include "model/Message.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QScrollBar>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

ToolCall call(const QString &id, const QString &name, const QString &arguments)
{
    return ToolCall{id, name, arguments, true};
}

// A conversation with one of every kind of row.
void fillSample(ConversationModel &model)
{
    model.appendMessages({
        Message::system(u"You are a coding agent."_s),
        Message::user(u"Why does the build fail on CI but not locally?"_s),
        Message::assistant(u"## Likely cause\n\nThe CI image uses **GCC 12**, which warns about `-Wdangling-reference`:\n\n"
                           "1. `-Werror` turns it into an error\n2. your local build has no `-Werror`\n\n"
                           "```cpp\nconst auto &name = lookup(key).name; // dangles\n```\n\nLet me check the log."_s,
                           {call(u"call_1"_s, u"bash"_s, u"{\"command\":\"grep -n error build.log\",\"timeout\":30}"_s)}),
        Message::toolResult(u"call_1"_s, u"build.log:120: error: possibly dangling reference [-Werror=dangling-reference]"_s),
    });
    model.setData(model.indexForCallId(u"call_1"_s), true, ConversationModel::ExpandedRole);
    model.addCompactionMarker({u"rec-42"_s, Tier::Full, 118400, 31250, 3, 4});
    model.appendMessages({Message::assistant({}, {call(u"call_2"_s, u"read_file"_s, u"{\"path\":\"src/main.cpp\"}"_s)})});
    model.setToolResult(u"call_2"_s, {ToolCallStatus::Ok,
                                      u"[offloaded: .waterline/tool_results/s1/call_2.txt | 900 lines, 40000 bytes]"_s,
                                      85, true});
    model.addApprovalRequest({u"ap-1"_s, u"bash"_s, u"call_3"_s, u"sed -i 's/const auto &/const auto /' src/lookup.cpp"_s,
                              false});
    model.addError({u"err-1"_s, u"The provider answered HTTP 503 (Service Unavailable)."_s, true});
    ConversationProgress progress;
    progress.kind = ConversationProgress::Kind::Compacting;
    progress.tier = Tier::Full;
    progress.messageCount = 42;
    progress.startedAt = QDateTime::currentDateTime().addSecs(-12);
    model.setProgress(progress);
}

QList<Message> manyMessages(int count)
{
    QList<Message> messages;
    messages.reserve(count);
    for (int i = 0; i < count; ++i) {
        if (i % 2 == 0)
            messages.append(Message::user(u"Question %1: what does line %1 of the log mean?"_s.arg(i)));
        else
            messages.append(Message::assistant(u"Answer %1. It means the **step** failed; see `log %1`.\n\n- one\n- two"_s.arg(i)));
    }
    return messages;
}

struct Fixture
{
    ConversationModel model;
    QAbstractItemModelTester tester{&model, QAbstractItemModelTester::FailureReportingMode::QtTest};
    ConversationView view;

    Fixture(int width = 900, int height = 700)
    {
        view.setModel(&model);
        view.resize(width, height);
    }
    bool show()
    {
        view.show();
        if (!QTest::qWaitForWindowExposed(&view))
            return false;
        view.ensureVisibleLayouts();
        return true;
    }
    void click(const QModelIndex &index, ConversationAction action)
    {
        view.ensureVisibleLayouts();
        const QRect rect = view.actionRect(index, action);
        QVERIFY2(rect.isValid(), "the action has a rect");
        QTest::mouseClick(view.viewport(), Qt::LeftButton, {}, rect.center());
    }
};

} // namespace

class TestConversationView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void appendedMessagesAreShown();
    void streamingRelaysOutOneRow();
    void followsBottomUnlessScrolledUp();
    void prependKeepsRowsInPlace();
    void toolCardRunningThenOk();
    void toolCardHeaderToggles();
    void approvalButtons_data();
    void approvalButtons();
    void approvalKeyboard_data();
    void approvalKeyboard();
    void retryAndSkip();
    void compactionMarkerClick();
    void offloadBadgeClick();
    void selectMessageScrollsWithoutReporting();
    void userChoiceIsReported();
    void copySelectedRow();
    void tenThousandRowsLayOutOnlyVisible();
    void paletteChangeRebuildsLayouts();
    void screenshot_data();
    void screenshot();
    void screenshotLive();
};

void TestConversationView::initTestCase()
{
    // One style on every machine, so geometry does not depend on the desktop.
    QApplication::setStyle(QStyleFactory::create(u"Fusion"_s));
}

void TestConversationView::appendedMessagesAreShown()
{
    Fixture f;
    QVERIFY(f.show());
    QCOMPARE(f.view.laidOutRowCount(), 0);
    f.model.appendMessages({Message::user(u"hello"_s), Message::assistant(u"**hi** there"_s)});
    QTRY_COMPARE(f.view.laidOutRowCount(), 2);
    const QRect first = f.view.visualRect(f.model.index(0));
    const QRect second = f.view.visualRect(f.model.index(1));
    QVERIFY(first.isValid() && second.isValid());
    QCOMPARE(second.top(), first.bottom() + 1);
    QVERIFY(f.view.viewport()->rect().contains(second));
}

void TestConversationView::streamingRelaysOutOneRow()
{
    Fixture f;
    f.model.appendMessages(manyMessages(20));
    QVERIFY(f.show());
    f.model.beginAssistantStream();
    f.view.ensureVisibleLayouts();
    const qint64 built = f.view.conversationDelegate()->layoutsBuilt();
    QSignalSpy changed(&f.model, &QAbstractItemModel::dataChanged);
    QString text;
    for (int i = 0; i < 30; ++i) {
        const QString piece = u"word%1 "_s.arg(i);
        text += piece;
        f.model.appendStreamText(piece);
    }
    QCOMPARE(changed.size(), 30);
    QCoreApplication::processEvents();
    f.view.ensureVisibleLayouts();
    // Only the streaming row was laid out again (once: the changes came in one go).
    QCOMPARE(f.view.conversationDelegate()->layoutsBuilt(), built + 1);
    const QModelIndex streaming = f.model.index(f.model.rowCount() - 1);
    QCOMPARE(streaming.data(ConversationModel::TextRole).toString(), text);
    // The text arrived at the bottom and the view followed it.
    QVERIFY(f.view.isFollowingBottom());
    QCOMPARE(f.view.verticalScrollBar()->value(), f.view.verticalScrollBar()->maximum());
    QVERIFY(f.view.viewport()->rect().contains(f.view.visualRect(streaming).bottomLeft()));
}

void TestConversationView::followsBottomUnlessScrolledUp()
{
    Fixture f;
    f.model.appendMessages(manyMessages(200));
    QVERIFY(f.show());
    f.view.setFollowingBottom(true);
    QScrollBar *bar = f.view.verticalScrollBar();
    QCOMPARE(bar->value(), bar->maximum());

    // The user scrolls to the top: new text must not pull the view down.
    bar->setValue(0);
    QVERIFY(!f.view.isFollowingBottom());
    f.model.beginAssistantStream();
    f.model.appendStreamText(u"streamed"_s);
    QCoreApplication::processEvents();
    f.view.ensureVisibleLayouts();
    QCOMPARE(bar->value(), 0);

    // Back at the bottom, it follows again.
    bar->setValue(bar->maximum());
    QVERIFY(f.view.isFollowingBottom());
    f.model.appendStreamText(u"\n\nmore\n\nand more\n\nand more"_s);
    QCoreApplication::processEvents();
    f.view.ensureVisibleLayouts();
    QCOMPARE(bar->value(), bar->maximum());
}

void TestConversationView::prependKeepsRowsInPlace()
{
    Fixture f;
    f.model.appendMessages(manyMessages(200));
    QVERIFY(f.show());
    QScrollBar *bar = f.view.verticalScrollBar();
    bar->setValue(bar->maximum() / 2);   // the user reads the middle
    f.view.ensureVisibleLayouts();
    QVERIFY(!f.view.isFollowingBottom());
    const QModelIndex first = f.view.indexAt(QPoint(f.view.viewport()->width() / 2, 0));
    QVERIFY(first.isValid());
    const QPersistentModelIndex reading(first);
    const int top = f.view.visualRect(first).top();
    const QString text = first.data(ConversationModel::TextRole).toString();

    f.model.prependMessages(manyMessages(50));
    QCOMPARE(reading.row(), first.row() + 50);
    QCOMPARE(f.view.visualRect(reading).top(), top);
    QCOMPARE(f.view.indexAt(QPoint(f.view.viewport()->width() / 2, 0)).data(ConversationModel::TextRole).toString(),
             text);
}

void TestConversationView::toolCardRunningThenOk()
{
    Fixture f;
    QVERIFY(f.show());
    f.model.beginAssistantStream();
    f.model.appendStreamText(u"Listing files."_s);
    f.model.finishAssistantStream(Message::assistant(u"Listing files."_s, {call(u"c1"_s, u"bash"_s, u"{\"command\":\"ls\"}"_s)}));
    const QModelIndex card = f.model.indexForCallId(u"c1"_s);
    QVERIFY(card.isValid());
    QCOMPARE(ConversationRowKind(card.data(ConversationModel::KindRole).toInt()), ConversationRowKind::ToolCall);
    f.view.ensureVisibleLayouts();
    QVERIFY(f.view.viewport()->rect().intersects(f.view.visualRect(card)));

    f.model.setToolRunning(u"c1"_s);
    QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Running);
    const QImage running = f.view.viewport()->grab(f.view.visualRect(card)).toImage();
    f.model.setToolResult(u"c1"_s, {ToolCallStatus::Ok, u"a.txt\nb.txt"_s, 40, false});
    QCOMPARE(ToolCallStatus(card.data(ConversationModel::ToolStatusRole).toInt()), ToolCallStatus::Ok);
    QCOMPARE(card.data(ConversationModel::ToolDurationRole).toLongLong(), 40);
    const QImage ok = f.view.viewport()->grab(f.view.visualRect(card)).toImage();
    // The card was repainted with the new status.
    QVERIFY(running != ok);
}

void TestConversationView::toolCardHeaderToggles()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"c1"_s, u"bash"_s, u"{\"command\":\"ls -la\"}"_s)}),
                            Message::toolResult(u"c1"_s, u"one\ntwo\nthree"_s)});
    QVERIFY(f.show());
    const QModelIndex card = f.model.indexForCallId(u"c1"_s);
    const int collapsed = f.view.visualRect(card).height();
    f.click(card, ConversationAction::ToggleExpanded);
    QVERIFY(card.data(ConversationModel::ExpandedRole).toBool());
    f.view.ensureVisibleLayouts();
    const int expanded = f.view.visualRect(card).height();
    QVERIFY2(expanded > collapsed + 40, qPrintable(u"%1 -> %2"_s.arg(collapsed).arg(expanded)));
    f.click(card, ConversationAction::ToggleExpanded);
    QVERIFY(!card.data(ConversationModel::ExpandedRole).toBool());
    f.view.ensureVisibleLayouts();
    QCOMPARE(f.view.visualRect(card).height(), collapsed);

    // The keyboard does the same: Space on the current card.
    f.view.setFocus();
    f.view.setCurrentIndex(card);
    QTest::keyClick(&f.view, Qt::Key_Space);
    QVERIFY(card.data(ConversationModel::ExpandedRole).toBool());
}

void TestConversationView::approvalButtons_data()
{
    QTest::addColumn<ConversationAction>("button");
    QTest::addColumn<ApprovalDecision>("decision");
    QTest::newRow("allow once") << ConversationAction::AllowOnce << ApprovalDecision::AllowOnce;
    QTest::newRow("allow for session") << ConversationAction::AllowForSession << ApprovalDecision::AllowForSession;
    QTest::newRow("deny") << ConversationAction::Deny << ApprovalDecision::Deny;
}

void TestConversationView::approvalButtons()
{
    QFETCH(ConversationAction, button);
    QFETCH(ApprovalDecision, decision);
    Fixture f;
    f.model.addApprovalRequest({u"ap-7"_s, u"bash"_s, u"c7"_s, u"rm -rf build/"_s, false});
    QVERIFY(f.show());
    QSignalSpy decided(&f.view, &ConversationView::approvalDecided);
    const QModelIndex row = f.model.indexForApproval(u"ap-7"_s);
    f.click(row, button);
    QCOMPARE(decided.size(), 1);
    QCOMPARE(decided.at(0).at(0).toString(), u"ap-7"_s);
    QCOMPARE(decided.at(0).at(1).value<ApprovalDecision>(), decision);

    // Once decided the buttons are gone and a click there does nothing.
    const QPoint where = f.view.actionRect(row, button).center();
    f.model.resolveApproval(u"ap-7"_s, decision);
    f.view.ensureVisibleLayouts();
    QVERIFY(f.view.actionRect(row, button).isNull());
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, where);
    QCOMPARE(decided.size(), 1);
}

void TestConversationView::approvalKeyboard_data()
{
    QTest::addColumn<int>("rightPresses");
    QTest::addColumn<ApprovalDecision>("decision");
    QTest::newRow("first") << 0 << ApprovalDecision::AllowOnce;
    QTest::newRow("second") << 1 << ApprovalDecision::AllowForSession;
    QTest::newRow("third") << 2 << ApprovalDecision::Deny;
    QTest::newRow("wraps") << 3 << ApprovalDecision::AllowOnce;
}

void TestConversationView::approvalKeyboard()
{
    QFETCH(int, rightPresses);
    QFETCH(ApprovalDecision, decision);
    Fixture f;
    f.model.appendMessages({Message::user(u"clean up"_s)});
    f.model.addApprovalRequest({u"ap-1"_s, u"bash"_s, {}, u"rm -rf build/"_s, false});
    QVERIFY(f.show());
    f.view.setFocus();
    f.view.setCurrentIndex(f.model.indexForApproval(u"ap-1"_s));
    QCOMPARE(f.view.focusedAction(), ConversationAction::AllowOnce);
    QSignalSpy decided(&f.view, &ConversationView::approvalDecided);
    for (int i = 0; i < rightPresses; ++i)
        QTest::keyClick(&f.view, Qt::Key_Right);
    QTest::keyClick(&f.view, Qt::Key_Return);
    QCOMPARE(decided.size(), 1);
    QCOMPARE(decided.at(0).at(1).value<ApprovalDecision>(), decision);
}

void TestConversationView::retryAndSkip()
{
    Fixture f;
    f.model.addError({u"err-1"_s, u"HTTP 503"_s, true});
    f.model.addError({u"err-2"_s, u"Bad API key"_s, false});
    ConversationProgress progress;
    progress.kind = ConversationProgress::Kind::WaitingToRetry;
    progress.attempt = 2;
    progress.nextAttemptAt = QDateTime::currentDateTime().addSecs(4);
    f.model.setProgress(progress);
    QVERIFY(f.show());
    QSignalSpy retry(&f.view, &ConversationView::retryRequested);
    QSignalSpy skip(&f.view, &ConversationView::skipRequested);

    f.click(f.model.index(0), ConversationAction::Retry);
    QCOMPARE(retry.size(), 1);
    QCOMPARE(retry.at(0).at(0).toString(), u"err-1"_s);
    // A non-retryable error has no Retry button.
    QVERIFY(f.view.actionRect(f.model.index(1), ConversationAction::Retry).isNull());

    f.click(f.model.progressIndex(), ConversationAction::Skip);
    QCOMPARE(skip.size(), 1);
    QCOMPARE(retry.size(), 1);
}

void TestConversationView::compactionMarkerClick()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hi"_s)});
    const int row = f.model.addCompactionMarker({u"rec-9"_s, Tier::Soft, 9000, 4000, 1, 0});
    QVERIFY(f.show());
    QSignalSpy activated(&f.view, &ConversationView::compactionActivated);
    f.click(f.model.index(row), ConversationAction::OpenCompaction);
    QCOMPARE(activated.size(), 1);
    QCOMPARE(activated.at(0).at(0).toString(), u"rec-9"_s);
    // A click on a message row is not a marker click.
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.visualRect(f.model.index(0)).center());
    QCOMPARE(activated.size(), 1);
}

void TestConversationView::offloadBadgeClick()
{
    Fixture f;
    f.model.appendMessages({Message::assistant({}, {call(u"big"_s, u"bash"_s, u"{\"command\":\"cat huge.log\"}"_s)})});
    f.model.setToolResult(u"big"_s, {ToolCallStatus::Ok, u"[offloaded: x | 1 lines, 2 bytes]"_s, 10, false});
    QVERIFY(f.show());
    QSignalSpy offload(&f.view, &ConversationView::offloadActivated);
    const QModelIndex card = f.model.indexForCallId(u"big"_s);
    f.click(card, ConversationAction::OpenOffload);
    QCOMPARE(offload.size(), 1);
    QCOMPARE(offload.at(0).at(0).toString(), u"big"_s);
    // The badge is not the header: the card did not toggle.
    QVERIFY(!card.data(ConversationModel::ExpandedRole).toBool());
}

// The linked selection moves the conversation: the row becomes current and comes on screen.
void TestConversationView::selectMessageScrollsWithoutReporting()
{
    Fixture f;
    QList<Message> messages = manyMessages(300);
    for (qsizetype i = 0; i < messages.size(); ++i)
        messages[i].id = 1000 + i;
    messages.insert(41, Message::assistant({}, {call(u"c41"_s, u"bash"_s, u"{}"_s)}));
    messages[41].id = 5000;
    Message result = Message::toolResult(u"c41"_s, u"output"_s);
    result.id = 5001;
    messages.insert(42, result);
    f.model.appendMessages(messages.mid(0, 150));
    const int marker = f.model.addCompactionMarker({u"rec-5"_s, Tier::Warn, 100, 50, 0, 1});
    f.model.appendMessages(messages.mid(150));
    QVERIFY(f.show());
    QVERIFY(f.view.isFollowingBottom());
    QSignalSpy chosen(&f.view, &ConversationView::messageChosen);
    QSignalSpy compaction(&f.view, &ConversationView::compactionActivated);

    QVERIFY(f.view.selectMessage(1010));
    QCOMPARE(f.view.currentIndex().data(ConversationModel::MessageIdRole).toLongLong(), qint64(1010));
    QVERIFY(f.view.viewport()->rect().intersects(f.view.visualRect(f.view.currentIndex())));
    QVERIFY(!f.view.isFollowingBottom());
    // A tool result is found on its card.
    QVERIFY(f.view.selectMessage(5001));
    QCOMPARE(f.view.currentIndex(), f.model.indexForCallId(u"c41"_s));
    QVERIFY(f.view.viewport()->rect().intersects(f.view.visualRect(f.view.currentIndex())));
    QVERIFY(f.view.selectCompaction(u"rec-5"_s));
    QCOMPARE(f.view.currentIndex().row(), marker);
    QVERIFY(f.view.viewport()->rect().intersects(f.view.visualRect(f.view.currentIndex())));
    QVERIFY(!f.view.selectMessage(42));
    QVERIFY(!f.view.selectCompaction(u"rec-unknown"_s));
    QCOMPARE(chosen.size(), 0);
    QCOMPARE(compaction.size(), 0);
}

void TestConversationView::userChoiceIsReported()
{
    Fixture f;
    Message question = Message::user(u"first"_s);
    question.id = 7;
    Message call1 = Message::assistant({}, {call(u"c1"_s, u"bash"_s, u"{}"_s)});
    call1.id = 8;
    Message result = Message::toolResult(u"c1"_s, u"done"_s);
    result.id = 9;
    Message answer = Message::assistant(u"all good"_s);
    answer.id = 10;
    f.model.appendMessages({question, call1, result, answer});
    const int marker = f.model.addCompactionMarker({u"rec-1"_s, Tier::Soft, 100, 50, 1, 0});
    QVERIFY(f.show());
    QSignalSpy chosen(&f.view, &ConversationView::messageChosen);
    QSignalSpy compaction(&f.view, &ConversationView::compactionActivated);
    QTest::mouseClick(f.view.viewport(), Qt::LeftButton, {}, f.view.visualRect(f.model.index(0)).center());
    QCOMPARE(chosen.size(), 1);
    QCOMPARE(chosen.at(0).at(0).toLongLong(), qint64(7));
    // Keys choose too; a tool card stands for its result.
    f.view.setFocus();
    QTest::keyClick(&f.view, Qt::Key_Down);
    QCOMPARE(chosen.size(), 2);
    QCOMPARE(chosen.at(1).at(0).toLongLong(), qint64(9));
    QTest::keyClick(&f.view, Qt::Key_Down);
    QTest::keyClick(&f.view, Qt::Key_Down);
    QCOMPARE(f.view.currentIndex().row(), marker);
    QCOMPARE(compaction.size(), 1);
    QCOMPARE(compaction.at(0).at(0).toString(), u"rec-1"_s);
}

void TestConversationView::copySelectedRow()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"first *question*"_s), Message::assistant(u"the **answer**"_s),
                            Message::user(u"third"_s)});
    QVERIFY(f.show());
    f.view.setFocus();
    f.view.selectionModel()->select(f.model.index(1), QItemSelectionModel::ClearAndSelect);
    QTest::keyClick(&f.view, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QGuiApplication::clipboard()->text(), u"the **answer**"_s);
    f.view.selectionModel()->select(f.model.index(0), QItemSelectionModel::Select);
    QTest::keyClick(&f.view, Qt::Key_C, Qt::ControlModifier);
    QCOMPARE(QGuiApplication::clipboard()->text(), u"first *question*\n\nthe **answer**"_s);
}

void TestConversationView::tenThousandRowsLayOutOnlyVisible()
{
    Fixture f(900, 700);
    f.model.appendMessages(manyMessages(10000));
    QVERIFY(f.show());
    QCoreApplication::processEvents();
    const int atTop = f.view.laidOutRowCount();
    QVERIFY2(atTop > 0 && atTop < 60, qPrintable(QString::number(atTop)));

    f.view.scrollToBottom();
    f.view.ensureVisibleLayouts();
    f.view.viewport()->repaint();
    QCoreApplication::processEvents();
    const int laidOut = f.view.laidOutRowCount();
    QVERIFY2(laidOut < 60, qPrintable(QString::number(laidOut)));
    QVERIFY2(f.view.conversationDelegate()->layoutsBuilt() < 100,
             qPrintable(QString::number(f.view.conversationDelegate()->layoutsBuilt())));
    // The last row is on screen.
    const QRect last = f.view.visualRect(f.model.index(9999));
    QVERIFY(f.view.viewport()->rect().intersects(last));

    // Scrolling through the middle keeps the cache bounded.
    QScrollBar *bar = f.view.verticalScrollBar();
    for (int step = 0; step < 20; ++step) {
        bar->setValue(bar->maximum() * step / 20);
        f.view.ensureVisibleLayouts();
    }
    QVERIFY(f.view.laidOutRowCount() <= f.view.conversationDelegate()->cacheCapacity());
    QVERIFY(f.view.laidOutRowCount() < 10000 / 10);
}

void TestConversationView::paletteChangeRebuildsLayouts()
{
    Fixture f;
    f.model.appendMessages({Message::user(u"hello"_s), Message::assistant(u"hi"_s)});
    QVERIFY(f.show());
    QCOMPARE(f.view.laidOutRowCount(), 2);
    const QImage light = f.view.viewport()->grab().toImage();
    QPalette dark = f.view.palette();
    dark.setColor(QPalette::Base, QColor(0x20, 0x20, 0x24));
    dark.setColor(QPalette::Window, QColor(0x28, 0x28, 0x2c));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    f.view.setPalette(dark);
    QCOMPARE(f.view.laidOutRowCount(), 0);
    f.view.ensureVisibleLayouts();
    QCOMPARE(f.view.laidOutRowCount(), 2);
    const QImage darkImage = f.view.viewport()->grab().toImage();
    QVERIFY(light != darkImage);
    QVERIFY(darkImage.pixelColor(2, 2).lightness() < 80);
}

void TestConversationView::screenshot_data()
{
    QTest::addColumn<bool>("dark");
    QTest::newRow("light") << false;
    QTest::newRow("dark") << true;
}

void TestConversationView::screenshot()
{
    QFETCH(bool, dark);
    Fixture f(900, 1250);
    if (dark) {
        QPalette palette;
        palette.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x30));
        palette.setColor(QPalette::WindowText, QColor(0xe6, 0xe6, 0xe6));
        palette.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x22));
        palette.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x2b));
        palette.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
        palette.setColor(QPalette::Button, QColor(0x35, 0x35, 0x3b));
        palette.setColor(QPalette::ButtonText, QColor(0xe6, 0xe6, 0xe6));
        palette.setColor(QPalette::Highlight, QColor(0x3d, 0x8b, 0xd6));
        palette.setColor(QPalette::Link, QColor(0x6c, 0xb4, 0xff));
        f.view.setPalette(palette);
    }
    fillSample(f.model);
    QVERIFY(f.show());
    f.view.setFollowingBottom(false);
    f.view.verticalScrollBar()->setValue(0);
    f.view.ensureVisibleLayouts();
    const QImage image = f.view.grab().toImage();
    const QString path = QDir::temp().filePath(dark ? u"waterline-conversation-dark.png"_s
                                                    : u"waterline-conversation-light.png"_s);
    QVERIFY(image.save(path));
    // Every kind of row is on screen.
    for (int row = 0; row < f.model.rowCount(); ++row)
        QVERIFY2(f.view.viewport()->rect().intersects(f.view.visualRect(f.model.index(row))), qPrintable(QString::number(row)));

    // The expanded card's arguments are highlighted: the JSON box holds more than two colours
    // (background and plain text), which an invisible or unhighlighted document would not.
    const QModelIndex card = f.model.indexForCallId(u"call_1"_s);
    const QRect cardRect = f.view.visualRect(card);
    const QImage cardImage = f.view.viewport()->grab(cardRect).toImage();
    QSet<QRgb> colours;
    for (int y = 0; y < cardImage.height(); ++y)
        for (int x = 0; x < cardImage.width(); ++x)
            colours.insert(cardImage.pixel(x, y) & 0xf0f0f0);
    QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));
}

void TestConversationView::screenshotLive()
{
    // Narrow, with work in flight: a running card, a diff waiting for approval, streaming text.
    Fixture f(560, 640);
    f.model.appendMessages({Message::user(u"Rename the helper and run the tests, please."_s),
                            Message::assistant(u"Running the test suite first."_s,
                                               {call(u"t1"_s, u"bash"_s,
                                                     u"{\"command\":\"ctest --output-on-failure -R conversation_and_a_very_long_filter_name\"}"_s)})});
    f.model.setToolRunning(u"t1"_s);
    f.model.addApprovalRequest({u"ap-2"_s, u"edit_file"_s, u"t2"_s,
                                u"--- a/src/util.cpp\n+++ b/src/util.cpp\n@@ -1,3 +1,3 @@\n-int helper(int x)\n+int clampToRange(int x)\n { return x; }"_s,
                                true});
    f.model.beginAssistantStream();
    f.model.appendStreamText(u"While that runs: the helper is used in **three** places, "_s);
    QVERIFY(f.show());
    f.view.ensureVisibleLayouts();
    const QImage image = f.view.grab().toImage();
    QVERIFY(image.save(QDir::temp().filePath(u"waterline-conversation-live.png"_s)));

    // The diff's added line is painted green, its removed line red.
    const QRect approval = f.view.visualRect(f.model.indexForApproval(u"ap-2"_s));
    const QImage approvalImage = f.view.viewport()->grab(approval).toImage();
    bool green = false, red = false;
    for (int y = 0; y < approvalImage.height(); ++y) {
        for (int x = 0; x < approvalImage.width(); ++x) {
            const QColor c = approvalImage.pixelColor(x, y);
            green = green || (c.green() > c.red() + 60 && c.green() > c.blue() + 40);
            red = red || (c.red() > c.green() + 80 && c.red() > c.blue() + 60);
        }
    }
    QVERIFY(green);
    QVERIFY(red);
}

QTEST_MAIN(TestConversationView)
#include "tst_conversationview.moc"
