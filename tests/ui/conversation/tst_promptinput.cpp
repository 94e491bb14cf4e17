#include "conversation/PromptInput.h"
#include "conversation/SlashCommand.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QDir>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

class TestPromptInput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data();
    void parse();
    void ctrlEnterSubmits();
    void plainEnterIsANewline();
    void emptyIsNotSubmitted();
    void escapeStops();
    void commandsAreParsed_data();
    void commandsAreParsed();
    void unknownCommandIsExplained();
    void completionPopup();
    void completionNarrowsAndHides();
    void blockedReason();
    void readOnlyReasonIsNoBanner();
    void sendBecomesStop();
    void runningRefusesMessagesButTakesCommands();
    void screenshot();
};

void TestPromptInput::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<SlashParse>("result");
    QTest::addColumn<SlashCommand>("command");
    QTest::newRow("compact") << u"/compact"_s << SlashParse::Command << SlashCommand::Compact;
    QTest::newRow("compact force") << u"/compact force"_s << SlashParse::Command << SlashCommand::CompactForce;
    QTest::newRow("extra spaces and case") << u"  /Compact   FORCE \n"_s << SlashParse::NotACommand
                                           << SlashCommand::Compact;
    QTest::newRow("trailing space") << u"/compact   force \n"_s << SlashParse::Command << SlashCommand::CompactForce;
    QTest::newRow("undo") << u"/undo-compaction"_s << SlashParse::Command << SlashCommand::UndoCompaction;
    QTest::newRow("new") << u"/new"_s << SlashParse::Command << SlashCommand::NewSession;
    QTest::newRow("retry") << u"/retry"_s << SlashParse::Command << SlashCommand::Retry;
    QTest::newRow("unknown") << u"/frobnicate"_s << SlashParse::Unknown << SlashCommand::Compact;
    QTest::newRow("command with junk") << u"/compact now please"_s << SlashParse::Unknown << SlashCommand::Compact;
    QTest::newRow("a path") << u"/usr/bin/env fails"_s << SlashParse::NotACommand << SlashCommand::Compact;
    QTest::newRow("plain text") << u"compact the code"_s << SlashParse::NotACommand << SlashCommand::Compact;
    QTest::newRow("lone slash") << u"/"_s << SlashParse::NotACommand << SlashCommand::Compact;
    QTest::newRow("slash digit") << u"/1 is a fraction"_s << SlashParse::NotACommand << SlashCommand::Compact;
}

void TestPromptInput::parse()
{
    QFETCH(QString, text);
    QFETCH(SlashParse, result);
    QFETCH(SlashCommand, command);
    SlashCommand parsed = SlashCommand::Compact;
    QCOMPARE(parseSlashCommand(text, &parsed), result);
    if (result == SlashParse::Command)
        QCOMPARE(parsed, command);
}

void TestPromptInput::ctrlEnterSubmits()
{
    PromptInput input;
    QSignalSpy submitted(&input, &PromptInput::submitted);
    QTest::keyClicks(input.editor(), u"Explain the failure"_s);
    QTest::keyClick(input.editor(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(submitted.size(), 1);
    QCOMPARE(submitted.at(0).at(0).toString(), u"Explain the failure"_s);
    QVERIFY(input.text().isEmpty());

    // The keypad Enter works the same.
    QTest::keyClicks(input.editor(), u"again"_s);
    QTest::keyClick(input.editor(), Qt::Key_Enter, Qt::ControlModifier | Qt::KeypadModifier);
    QCOMPARE(submitted.size(), 2);
    QCOMPARE(submitted.at(1).at(0).toString(), u"again"_s);
}

void TestPromptInput::plainEnterIsANewline()
{
    PromptInput input;
    QSignalSpy submitted(&input, &PromptInput::submitted);
    QTest::keyClicks(input.editor(), u"line one"_s);
    QTest::keyClick(input.editor(), Qt::Key_Return);
    QTest::keyClicks(input.editor(), u"line two"_s);
    QCOMPARE(submitted.size(), 0);
    QCOMPARE(input.text(), u"line one\nline two"_s);
    QTest::mouseClick(input.sendButton(), Qt::LeftButton);
    QCOMPARE(submitted.size(), 1);
    QCOMPARE(submitted.at(0).at(0).toString(), u"line one\nline two"_s);
}

void TestPromptInput::emptyIsNotSubmitted()
{
    PromptInput input;
    QSignalSpy submitted(&input, &PromptInput::submitted);
    QTest::keyClicks(input.editor(), u"   "_s);
    QTest::keyClick(input.editor(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(submitted.size(), 0);
}

void TestPromptInput::escapeStops()
{
    PromptInput input;
    QSignalSpy stop(&input, &PromptInput::stopRequested);
    QTest::keyClicks(input.editor(), u"typing"_s);
    QTest::keyClick(input.editor(), Qt::Key_Escape);
    QCOMPARE(stop.size(), 1);
    QCOMPARE(input.text(), u"typing"_s);
}

void TestPromptInput::commandsAreParsed_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<SlashCommand>("command");
    for (const SlashCommandInfo &info : slashCommands())
        QTest::newRow(qPrintable(info.text)) << info.text << info.command;
}

void TestPromptInput::commandsAreParsed()
{
    QFETCH(QString, text);
    QFETCH(SlashCommand, command);
    PromptInput input;
    QSignalSpy submitted(&input, &PromptInput::submitted);
    QSignalSpy commands(&input, &PromptInput::commandRequested);
    input.setText(text);
    QTest::keyClick(input.editor(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(submitted.size(), 0);
    QCOMPARE(commands.size(), 1);
    QCOMPARE(commands.at(0).at(0).value<SlashCommand>(), command);
    QVERIFY(input.text().isEmpty());
}

void TestPromptInput::unknownCommandIsExplained()
{
    PromptInput input;
    QSignalSpy submitted(&input, &PromptInput::submitted);
    QSignalSpy commands(&input, &PromptInput::commandRequested);
    input.setText(u"/frobnicate"_s);
    input.submit();
    QCOMPARE(submitted.size(), 0);
    QCOMPARE(commands.size(), 0);
    QCOMPARE(input.text(), u"/frobnicate"_s);
    QVERIFY2(input.notice().contains(u"Unknown command /frobnicate"_s), qPrintable(input.notice()));
    auto *notice = input.findChild<QLabel *>(u"PromptNotice"_s);
    QVERIFY(notice);
    QVERIFY(notice->palette().color(QPalette::WindowText) != input.palette().color(QPalette::WindowText));
    QVERIFY(notice->palette().color(QPalette::WindowText) != input.palette().color(QPalette::PlaceholderText));
    QVERIFY(input.notice().contains(u"/compact force"_s));
    // Typing clears the message.
    QTest::keyClick(input.editor(), Qt::Key_Backspace);
    QVERIFY(input.notice().isEmpty());
}

void TestPromptInput::completionPopup()
{
    PromptInput input;
    input.resize(600, 150);
    input.show();
    QVERIFY(QTest::qWaitForWindowExposed(&input));
    QSignalSpy commands(&input, &PromptInput::commandRequested);
    QTest::keyClicks(input.editor(), u"/co"_s);
    QAbstractItemView *popup = input.completer()->popup();
    QTRY_VERIFY(popup->isVisible());
    QCOMPARE(input.completer()->completionCount(), 2);
    QStringList shown;
    for (int row = 0; row < popup->model()->rowCount(); ++row) {
        const QModelIndex entry = popup->model()->index(row, 0);
        shown.append(entry.data(input.completer()->completionRole()).toString());
        // The popup explains each command.
        QVERIFY(entry.data().toString().size() > shown.constLast().size() + 5);
    }
    QCOMPARE(shown, (QStringList{u"/compact"_s, u"/compact force"_s}));

    // Down to the second entry, Return accepts it into the box without sending.
    QTest::keyClick(popup, Qt::Key_Down);
    QTest::keyClick(popup, Qt::Key_Return);
    QTRY_VERIFY(!popup->isVisible());
    QCOMPARE(input.text(), u"/compact force"_s);
    QCOMPARE(commands.size(), 0);
    QTest::keyClick(input.editor(), Qt::Key_Return, Qt::ControlModifier);
    QCOMPARE(commands.size(), 1);
    QCOMPARE(commands.at(0).at(0).value<SlashCommand>(), SlashCommand::CompactForce);
}

void TestPromptInput::completionNarrowsAndHides()
{
    PromptInput input;
    input.resize(600, 150);
    input.show();
    QVERIFY(QTest::qWaitForWindowExposed(&input));
    QAbstractItemView *popup = input.completer()->popup();
    QTest::keyClicks(input.editor(), u"/"_s);
    QTRY_VERIFY(popup->isVisible());
    QCOMPARE(input.completer()->completionCount(), int(slashCommands().size()));
    QTest::keyClicks(input.editor(), u"un"_s);
    QCOMPARE(input.completer()->completionCount(), 1);
    QCOMPARE(input.completer()->currentCompletion(), u"/undo-compaction"_s);
    // Escape closes the popup, it does not stop the agent.
    QSignalSpy stop(&input, &PromptInput::stopRequested);
    QTest::keyClick(popup, Qt::Key_Escape);
    QTRY_VERIFY(!popup->isVisible());
    QCOMPARE(stop.size(), 0);
    // Text that is not a command has no popup.
    input.setText(u"hello /compact"_s);
    QVERIFY(!popup->isVisible());
}

// With no model (or a read-only session) the box still takes a draft and slash commands; a
// message is not sent, stays in the box, and the reason is said.
void TestPromptInput::blockedReason()
{
    PromptInput input;
    QSignalSpy submitted(&input, &PromptInput::submitted);
    QSignalSpy commands(&input, &PromptInput::commandRequested);
    input.setText(u"kept text"_s);
    const QString reason = u"No model is reachable: connect one in Settings"_s;
    input.setBlockedReason(reason);
    QVERIFY(input.isBlocked());
    QVERIFY(input.editor()->isEnabled());
    QVERIFY(input.sendButton()->isEnabled());
    QCOMPARE(input.notice(), reason);
    QCOMPARE(input.editor()->placeholderText(), reason);
    // The reason reads as a state (the dimmed text colour); a rejected command reads as a warning.
    auto *notice = input.findChild<QLabel *>(u"PromptNotice"_s);
    QVERIFY(notice);
    const QColor calm = notice->palette().color(QPalette::WindowText);
    QCOMPARE(calm, input.palette().color(QPalette::PlaceholderText));
    input.submit();
    QCOMPARE(submitted.size(), 0);
    QCOMPARE(input.text(), u"kept text"_s);
    QCOMPARE(input.notice(), reason);

    // A draft can be written meanwhile, and commands go through.
    input.editor()->clear();
    QTest::keyClicks(input.editor(), u"draft"_s);
    QCOMPARE(input.text(), u"draft"_s);
    input.setText(u"/new"_s);
    input.submit();
    QCOMPARE(commands.size(), 1);
    QCOMPARE(commands.first().first().value<SlashCommand>(), SlashCommand::NewSession);
    QVERIFY(input.text().isEmpty());

    input.setText(u"kept text"_s);
    input.setBlockedReason({});
    QVERIFY(!input.isBlocked());
    QVERIFY(input.notice().isEmpty());
    QVERIFY(input.editor()->placeholderText() != reason);
    QCOMPARE(input.text(), u"kept text"_s);
    input.submit();
    QCOMPARE(submitted.size(), 1);
}

// A read-only session blocks sending without a banner over the box: the reason is the placeholder.
void TestPromptInput::readOnlyReasonIsNoBanner()
{
    PromptInput input;
    const QString reason = u"This session was imported and is read-only."_s;
    input.setBlockedReason(reason, false);
    QVERIFY(input.isBlocked());
    QVERIFY(input.notice().isEmpty());
    QCOMPARE(input.editor()->placeholderText(), reason);
    QVERIFY(input.editor()->isEnabled());
    // Sending anyway says why.
    input.setText(u"hello"_s);
    input.submit();
    QCOMPARE(input.notice(), reason);
    QCOMPARE(input.text(), u"hello"_s);
}

void TestPromptInput::sendBecomesStop()
{
    PromptInput input;
    QSignalSpy stop(&input, &PromptInput::stopRequested);
    QSignalSpy submitted(&input, &PromptInput::submitted);
    const QString sendText = input.sendButton()->text();
    input.setRunning(true);
    QVERIFY(input.sendButton()->text() != sendText);
    QCOMPARE(input.sendButton()->text(), u"Stop"_s);
    QTest::mouseClick(input.sendButton(), Qt::LeftButton);
    QCOMPARE(stop.size(), 1);
    QCOMPARE(submitted.size(), 0);
    input.setRunning(false);
    QCOMPARE(input.sendButton()->text(), sendText);
    input.setText(u"next"_s);
    QTest::mouseClick(input.sendButton(), Qt::LeftButton);
    QCOMPARE(submitted.size(), 1);
    QCOMPARE(stop.size(), 1);
}

void TestPromptInput::runningRefusesMessagesButTakesCommands()
{
    PromptInput input;
    QSignalSpy submitted(&input, &PromptInput::submitted);
    QSignalSpy commands(&input, &PromptInput::commandRequested);
    input.setRunning(true);
    input.setText(u"another question"_s);
    input.submit();
    QCOMPARE(submitted.size(), 0);
    QCOMPARE(input.text(), u"another question"_s);
    QVERIFY(!input.notice().isEmpty());
    input.setText(u"/compact"_s);
    input.submit();
    QCOMPARE(commands.size(), 1);
}

void TestPromptInput::screenshot()
{
    PromptInput input;
    input.resize(700, 150);
    input.show();
    QVERIFY(QTest::qWaitForWindowExposed(&input));
    QTest::keyClicks(input.editor(), u"/"_s);
    QAbstractItemView *popup = input.completer()->popup();
    QTRY_VERIFY(popup->isVisible());
    QVERIFY(input.grab().save(QDir::temp().filePath(u"waterline-prompt.png"_s)));
    QVERIFY(popup->grab().save(QDir::temp().filePath(u"waterline-prompt-popup.png"_s)));
    // Every command is listed in the popup.
    QCOMPARE(popup->model()->rowCount(), int(slashCommands().size()));

    popup->hide();
    input.setBlockedReason(u"No model is reachable: connect one in Settings"_s);
    QVERIFY(input.findChild<QLabel *>(u"PromptNotice"_s)->isVisible());
    QVERIFY(input.grab().save(QDir::temp().filePath(u"waterline-prompt-blocked.png"_s)));
}

QTEST_MAIN(TestPromptInput)
#include "tst_promptinput.moc"
