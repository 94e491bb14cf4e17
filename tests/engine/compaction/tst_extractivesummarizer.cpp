#include "compaction/Checkpoint.h"
#include "compaction/ExtractiveSummarizer.h"
#include "compaction/SummaryChain.h"
#include "model/Message.h"
#include "replay/TranscriptFormats.h"
#include "whatif/ReplayInput.h"
#include "whatif/Simulator.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

ToolCall call(const QString &id, const QString &name, const QString &arguments)
{
    const bool valid = QJsonDocument::fromJson(arguments.toUtf8()).isObject();
    return ToolCall{id, name, arguments, valid};
}

QString args(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

// Gives messages the ids first, first+1, ...
QList<Message> numbered(QList<Message> messages, qint64 first)
{
    for (Message &m : messages)
        m.id = first++;
    return messages;
}

// A small agent session: request, decision, a write, a failing build, a fix, a passing build,
// a correction from the user, and a closing plan.
QList<Message> scriptedSession()
{
    return numbered(
        {
            Message::system(u"You are a coding agent."_s),
            Message::user(u"Add a --verbose flag to the CLI in src/cli.cpp and make sure the tests pass."_s),
            Message::assistant(u"I'll use QCommandLineParser instead of parsing argv by hand. Writing the file now."_s,
                               {call(u"c1"_s, u"write_file"_s, args({{u"path"_s, u"src/cli.cpp"_s}, {u"content"_s, u"int main() {}"_s}}))}),
            Message::toolResult(u"c1"_s, u"wrote 13 bytes to src/cli.cpp"_s),
            Message::assistant(QString(), {call(u"c2"_s, u"bash"_s, args({{u"command"_s, u"make test"_s}}))}),
            Message::toolResult(u"c2"_s, u"g++ -c src/cli.cpp\nsrc/cli.cpp:10:5: error: 'QCommandLineParser' was not declared in this scope\n"
                                         u"make: *** [Makefile:5: cli.o] Error 1\nexit code 2"_s),
            Message::assistant(u"The include is missing. Adding it before building again."_s,
                               {call(u"c3"_s, u"edit_file"_s, args({{u"path"_s, u"src/cli.cpp"_s}, {u"old"_s, u"a"_s}, {u"new"_s, u"b"_s}}))}),
            Message::toolResult(u"c3"_s, u"edited src/cli.cpp"_s),
            Message::assistant(QString(), {call(u"c4"_s, u"bash"_s, args({{u"command"_s, u"make test"_s}}))}),
            Message::toolResult(u"c4"_s, u"100% tests passed, 0 tests failed out of 12\nexit code 0"_s),
            Message::user(u"Also print the version with -V please."_s),
            Message::assistant(u"Understood.\n\nNext steps:\n- [ ] add the -V option\n- [ ] update README.md\nTODO: changelog entry"_s),
        },
        10);
}

// Every surrogate is part of a pair: no character was cut in half.
bool wellFormedUtf16(const QString &text)
{
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i].isHighSurrogate()) {
            if (i + 1 >= text.size() || !text[i + 1].isLowSurrogate())
                return false;
            ++i;
        } else if (text[i].isLowSurrogate()) {
            return false;
        }
    }
    return true;
}

// How many of the demo's 5 compactions have each anchor filled, at least: measured after the
// summariser learnt decisions, instructions, retries and intentions (before: 5, 5, 3, 2, 0; the
// three earliest spans hold no failed call, so Tried Solutions has nothing to say there).
constexpr std::array<int, kAnchorCount> kDemoFilled{5, 5, 4, 2, 5};

QList<Message> oneCommand(const QString &toolName, const QString &arguments, const QString &output, bool isError = false)
{
    return numbered({Message::user(u"run it"_s),
                     Message::assistant(QString(), {call(u"x1"_s, toolName, arguments)}),
                     Message::toolResult(u"x1"_s, output, isError)},
                    1);
}

} // namespace

class TestExtractiveSummarizer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scriptedSessionAnchors();
    void scriptedSessionSummary();
    void deterministic();
    void textRoundTrip_data();
    void textRoundTrip();

    void intent_data();
    void intent();
    void previousCheckpointCarriesOver();

    void commandOutcome_data();
    void commandOutcome();
    void editedFiles_data();
    void editedFiles();
    void onlyShellOutputIsSearched_data();
    void onlyShellOutputIsSearched();
    void decisions_data();
    void decisions();
    void nextSteps_data();
    void nextSteps();
    void userConstraints_data();
    void userConstraints();
    void constraintsAreTheUsersOnly();
    void triedThenRetried_data();
    void triedThenRetried();
    void artifactTrail();
    void earlierDecisionsSurviveALaterSummary();
    void demoAnchorsAreFilled();

    void commonRoot_data();
    void commonRoot();
    void injectedUserTextIsNotIntent();
    void messageLabels();
    void emptyInput();
    void outputBounded();
    void cjkNotSplit();
};

void TestExtractiveSummarizer::scriptedSessionAnchors()
{
    const ParsedSummary s = ExtractiveSummarizer::summarize(scriptedSession());
    QVERIFY(s.structured);
    const QString intent = s.anchors.value(AnchorKind::UserIntent);
    QVERIFY2(intent.startsWith(u"Add a --verbose flag to the CLI in src/cli.cpp"_s), qPrintable(intent));
    QVERIFY2(intent.contains(u"Later: Also print the version with -V please."_s), qPrintable(intent));

    const QString progress = s.anchors.value(AnchorKind::ExecutionProgress);
    QVERIFY2(progress.contains(u"src/cli.cpp"_s), qPrintable(progress));
    QVERIFY2(progress.contains(u"Commands that succeeded: \"make test\""_s), qPrintable(progress));

    const QString decisions = s.anchors.value(AnchorKind::KeyDecision);
    // The user's "make sure" constrains the work as much as the assistant's choice.
    QCOMPARE(decisions, u"- User: Add a --verbose flag to the CLI in src/cli.cpp and make sure the tests pass.\n"
                        u"- I'll use QCommandLineParser instead of parsing argv by hand."_s);

    const QString tried = s.anchors.value(AnchorKind::TriedSolution);
    QVERIFY2(tried.startsWith(u"- ran \"make test\" failed: "_s), qPrintable(tried));
    QVERIFY2(tried.contains(u"'QCommandLineParser' was not declared"_s), qPrintable(tried));
    QVERIFY2(tried.contains(u"next: The include is missing."_s), qPrintable(tried));
    QCOMPARE(tried.count(u'\n'), 0); // one failure, one line

    const QString next = s.anchors.value(AnchorKind::NextStep);
    QVERIFY2(next.contains(u"add the -V option"_s), qPrintable(next));
    QVERIFY2(next.contains(u"update README.md"_s), qPrintable(next));
    QVERIFY2(next.contains(u"TODO: changelog entry"_s), qPrintable(next));
    QVERIFY2(!next.contains(u"Understood"_s), qPrintable(next));
}

void TestExtractiveSummarizer::scriptedSessionSummary()
{
    const ParsedSummary s = ExtractiveSummarizer::summarize(scriptedSession());
    const QStringList lines = s.summary.split(u'\n');
    QCOMPARE(lines.size(), 2); // two user turns
    QVERIFY2(lines[0].startsWith(u"Messages 11-19: user asked \"Add a --verbose flag"_s), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(u"edited src/cli.cpp"_s), qPrintable(lines[0]));
    QVERIFY2(lines[0].contains(u"ran \"make test\" (failed), \"make test\""_s), qPrintable(lines[0]));
    QVERIFY2(lines[1].startsWith(u"Messages 20-21: user asked \"Also print the version"_s), qPrintable(lines[1]));
}

void TestExtractiveSummarizer::deterministic()
{
    const QList<Message> session = scriptedSession();
    const ParsedSummary first = ExtractiveSummarizer::summarize(session);
    const ParsedSummary second = ExtractiveSummarizer::summarize(session);
    QCOMPARE(first.anchors, second.anchors);
    QCOMPARE(first.summary, second.summary);
    QCOMPARE(ExtractiveSummarizer::toText(first), ExtractiveSummarizer::toText(second));
    // A copy of the input (different addresses, same content) gives the same text too.
    const QList<Message> copy(session.begin(), session.end());
    QCOMPARE(ExtractiveSummarizer::toText(ExtractiveSummarizer::summarize(copy)), ExtractiveSummarizer::toText(first));
}

void TestExtractiveSummarizer::textRoundTrip_data()
{
    QTest::addColumn<QList<Message>>("messages");
    QTest::newRow("scripted") << scriptedSession();
    QTest::newRow("empty") << QList<Message>();
    QTest::newRow("heading-in-request") << numbered({Message::user(u"## Summary\n### Next Steps\nplease fix"_s)}, 1);
    QTest::newRow("cjk") << numbered({Message::user(u"请修复上下文压缩。"_s), Message::assistant(u"我们决定使用 Qt 而不是 GTK。"_s)}, 1);
}

void TestExtractiveSummarizer::textRoundTrip()
{
    QFETCH(QList<Message>, messages);
    const ParsedSummary s = ExtractiveSummarizer::summarize(messages);
    const QString text = ExtractiveSummarizer::toText(s);
    QVERIFY(text.startsWith(u"## Anchors\n### User Intent\n"_s));
    const ParsedSummary back = parseAnchorsAndSummary(text);
    QVERIFY(back.structured);
    QCOMPARE(back.anchors, s.anchors);
    QCOMPARE(back.summary, s.summary);
    // And through a checkpoint message, as the Emergency tier stores it.
    const ParsedSummary viaCheckpoint = parseCheckpointText(checkpointMessageText(s.anchors, s.summary, {}));
    QCOMPARE(viaCheckpoint.anchors, s.anchors);
    QCOMPARE(viaCheckpoint.summary, s.summary);
}

void TestExtractiveSummarizer::intent_data()
{
    QTest::addColumn<QList<Message>>("messages");
    QTest::addColumn<QString>("intent");

    QTest::newRow("first-request") << numbered({Message::user(u"Fix the login bug."_s), Message::assistant(u"ok"_s)}, 1)
                                   << u"Fix the login bug."_s;
    QTest::newRow("skips-tool-result-with-user-role")
        << numbered({[] { Message m = Message::toolResult(u"old"_s, u"OBSERVATION: 3 files"_s); m.role = Role::User; return m; }(),
                     Message::user(u"Refactor the parser."_s)}, 1)
        << u"Refactor the parser."_s;
    QTest::newRow("skips-injected-reminders")
        << numbered({Message::user(u"<system-reminder>be brief</system-reminder>"_s), Message::user(u"Port it to Qt 6."_s)}, 1)
        << u"Port it to Qt 6."_s;
    QTest::newRow("whitespace-collapsed") << numbered({Message::user(u"  Fix\n\n the   bug  "_s)}, 1) << u"Fix the bug"_s;
    QTest::newRow("short-later-corrections")
        << numbered({Message::user(u"Write a parser."_s), Message::user(u"Use Rust, not C."_s), Message::user(u"And add tests."_s)}, 1)
        << u"Write a parser.\nLater: Use Rust, not C.\nLater: And add tests."_s;
    QTest::newRow("long-later-message-is-not-a-correction")
        << numbered({Message::user(u"Write a parser."_s), Message::user(QString(500, u'w'))}, 1) << u"Write a parser."_s;
    QTest::newRow("only-the-last-three-corrections")
        << numbered({Message::user(u"Goal"_s), Message::user(u"c1"_s), Message::user(u"c2"_s), Message::user(u"c3"_s), Message::user(u"c4"_s)}, 1)
        << u"Goal\nLater: c2\nLater: c3\nLater: c4"_s;
    QTest::newRow("no-user-request") << numbered({Message::assistant(u"Hello"_s)}, 1) << u"N/A"_s;
    QTest::newRow("long-request-cut") << numbered({Message::user(QString(1000, u'r'))}, 1) << QString(399, u'r') + u'\u2026';
}

void TestExtractiveSummarizer::intent()
{
    QFETCH(QList<Message>, messages);
    QFETCH(QString, intent);
    QCOMPARE(ExtractiveSummarizer::summarize(messages).anchors.value(AnchorKind::UserIntent), intent);
}

void TestExtractiveSummarizer::previousCheckpointCarriesOver()
{
    // As production calls it: the earlier checkpoint is an overlay handed in beside the messages,
    // never one of them (the head it precedes starts after it).
    Checkpoint previous;
    previous.anchors.setValue(AnchorKind::UserIntent, u"Build a REST API in Go with chi"_s);
    previous.anchors.setValue(AnchorKind::KeyDecision, u"- chi router"_s);
    previous.anchors.setValue(AnchorKind::NextStep, u"- add auth"_s);
    previous.summary = u"Handlers done for /todos."_s;
    const QList<Message> history = numbered(
        {Message::user(u"continue"_s),
         Message::assistant(QString(), {call(u"c1"_s, u"write_file"_s, args({{u"path"_s, u"auth.go"_s}}))}),
         Message::toolResult(u"c1"_s, u"ok"_s)},
        51);
    QList<const Message *> messages;
    for (const Message &m : history)
        messages << &m;
    const ParsedSummary s = SummaryChain::extractive(messages, &previous);
    // "continue" is a later word, not the intent.
    QCOMPARE(s.anchors.value(AnchorKind::UserIntent), u"Build a REST API in Go with chi\nLater: continue"_s);
    QCOMPARE(s.anchors.value(AnchorKind::KeyDecision), u"- chi router"_s);   // nothing new: kept
    QCOMPARE(s.anchors.value(AnchorKind::NextStep), u"- add auth"_s);
    QVERIFY(s.anchors.value(AnchorKind::ExecutionProgress).contains(u"auth.go"_s)); // new information wins
    QVERIFY2(s.summary.startsWith(u"Handlers done for /todos.\n\nMessages 51-53: "_s), qPrintable(s.summary));
    QVERIFY(!s.summary.contains(u"[Context Compaction]"_s));

    // Merged as the checkpoint would be: the intent is the earlier one, carried first.
    const AnchorMerge merged = mergeAnchors(previous.anchors, s.anchors);
    QVERIFY(merged.anchors.value(AnchorKind::UserIntent).startsWith(u"Build a REST API in Go with chi"_s));
}

void TestExtractiveSummarizer::commandOutcome_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("output");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<QString>("command"); // as shown
    QTest::addColumn<bool>("failed");
    QTest::addColumn<QString>("errorShown"); // part of the error line in Tried Solutions

    const QString pytest = args({{u"command"_s, u"pytest -q"_s}});
    QTest::newRow("success") << u"bash"_s << pytest << u"3 passed in 0.1s"_s << false << u"pytest -q"_s << false << QString();
    QTest::newRow("exit-code-0") << u"bash"_s << pytest << u"ok\nexit code 0"_s << false << u"pytest -q"_s << false << QString();
    QTest::newRow("is-error") << u"bash"_s << pytest << u"killed"_s << true << u"pytest -q"_s << true << u"killed"_s;
    QTest::newRow("traceback") << u"bash"_s << pytest << u"Traceback (most recent call last):\n  File x\nKeyError: 'a'"_s << false
                               << u"pytest -q"_s << true << u"Traceback"_s;
    QTest::newRow("FAILED") << u"bash"_s << pytest << u"tests/test_a.py::test_x FAILED"_s << false << u"pytest -q"_s << true
                            << u"test_x FAILED"_s;
    QTest::newRow("n-failed") << u"bash"_s << pytest << u"1 failed, 2 passed"_s << false << u"pytest -q"_s << true << u"1 failed"_s;
    QTest::newRow("python-error") << u"bash"_s << pytest << u"ModuleNotFoundError: No module named 'x'"_s << false << u"pytest -q"_s
                                  << true << u"No module named"_s;
    QTest::newRow("exit-code-2") << u"bash"_s << pytest << u"something\nexit code 2"_s << false << u"pytest -q"_s << true << u"exit code 2"_s;
    QTest::newRow("exited-with") << u"exec_command"_s << args({{u"cmd"_s, u"npm test"_s}}) << u"Process exited with code 1"_s << false
                                 << u"npm test"_s << true << u"exited with code 1"_s;
    QTest::newRow("argv-array") << u"shell"_s << args({{u"command"_s, QJsonArray{u"bash"_s, u"-lc"_s, u"cargo build"_s}}})
                                << u"Finished"_s << false << u"cargo build"_s << false << QString();
    QTest::newRow("error-word-in-prose-is-fine") << u"bash"_s << pytest << u"Error handling looks fine; 3 passed"_s << false
                                                  << u"pytest -q"_s << false << QString();
    // The exit code sits at the end of a long output, past the first 4 KB.
    QTest::newRow("failure-at-the-end") << u"bash"_s << pytest << QString(20000, u'.') + u"\nexit code 1"_s << false
                                        << u"pytest -q"_s << true << u"exit code 1"_s;
}

void TestExtractiveSummarizer::commandOutcome()
{
    QFETCH(QString, tool);
    QFETCH(QString, arguments);
    QFETCH(QString, output);
    QFETCH(bool, isError);
    QFETCH(QString, command);
    QFETCH(bool, failed);
    QFETCH(QString, errorShown);
    const ParsedSummary s = ExtractiveSummarizer::summarize(oneCommand(tool, arguments, output, isError));
    const QString progress = s.anchors.value(AnchorKind::ExecutionProgress);
    const QString tried = s.anchors.value(AnchorKind::TriedSolution);
    const QString quoted = u'"' + command + u'"';
    if (failed) {
        QCOMPARE(progress, u"N/A"_s);
        QVERIFY2(tried.startsWith(u"- ran "_s + quoted + u" failed: "_s), qPrintable(tried));
        QVERIFY2(tried.contains(errorShown), qPrintable(tried));
        QVERIFY2(s.summary.contains(quoted + u" (failed)"_s), qPrintable(s.summary));
    } else {
        QCOMPARE(progress, u"- Commands that succeeded: "_s + quoted);
        QCOMPARE(tried, u"N/A"_s);
        QVERIFY2(s.summary.contains(u"ran "_s + quoted), qPrintable(s.summary));
        QVERIFY2(!s.summary.contains(u"(failed)"_s), qPrintable(s.summary));
    }
}

void TestExtractiveSummarizer::editedFiles_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("arguments");
    QTest::addColumn<QString>("files"); // expected list in Execution Progress, after "- Files: "; empty: none

    QTest::newRow("write_file") << u"write_file"_s << args({{u"path"_s, u"src/a.cpp"_s}}) << u"created src/a.cpp"_s;
    QTest::newRow("claude-edit") << u"Edit"_s << args({{u"file_path"_s, u"lib/x.ex"_s}, {u"old_string"_s, u"a"_s}})
                                 << u"edited lib/x.ex"_s;
    QTest::newRow("str_replace_editor-create") << u"str_replace_editor"_s
                                               << args({{u"command"_s, u"create"_s}, {u"path"_s, u"/w/hello.py"_s}}) << u"edited /w/hello.py"_s;
    QTest::newRow("str_replace_editor-view-is-a-read") << u"str_replace_editor"_s
                                                       << args({{u"command"_s, u"view"_s}, {u"path"_s, u"/w/hello.py"_s}}) << u"read /w/hello.py"_s;
    QTest::newRow("read_file-is-a-read") << u"read_file"_s << args({{u"path"_s, u"src/a.cpp"_s}}) << u"read src/a.cpp"_s;
    QTest::newRow("apply_patch-raw") << u"apply_patch"_s
                                     << u"*** Begin Patch\n*** Update File: src/a.ts\n@@\n-x\n+y\n*** Add File: src/b.ts\n+z\n*** End Patch"_s
                                     << u"edited src/a.ts, src/b.ts"_s;
    QTest::newRow("apply_patch-json") << u"apply_patch"_s
                                      << args({{u"input"_s, u"*** Begin Patch\n*** Update File: src/c.ts\n@@\n-x\n+y\n*** End Patch"_s}})
                                      << u"edited src/c.ts"_s;
    QTest::newRow("unified-diff") << u"apply_patch"_s << u"--- a/x.c\n+++ b/x.c\n@@ -1 +1 @@\n-a\n+b\n"_s << u"edited x.c"_s;
    // A whole file being written: the path is found without parsing 60 KB of JSON.
    QTest::newRow("large-arguments") << u"write_file"_s
                                     << u"{\"path\": \"big/\\u00e9t\\u00e9.txt\", \"content\": \""_s + QString(60000, u'z') + u"\"}"_s
                                     << u"created big/été.txt"_s;
}

void TestExtractiveSummarizer::editedFiles()
{
    QFETCH(QString, tool);
    QFETCH(QString, arguments);
    QFETCH(QString, files);
    const ParsedSummary s = ExtractiveSummarizer::summarize(oneCommand(tool, arguments, u"done"_s));
    const QString progress = s.anchors.value(AnchorKind::ExecutionProgress);
    if (files.isEmpty()) {
        QCOMPARE(progress, u"N/A"_s);
    } else {
        QCOMPARE(progress, u"- Files: "_s + files);
        const QString verb = files.startsWith(u"read "_s) ? u"read "_s : u"edited "_s;
        QVERIFY2(s.summary.contains(verb + files.sliced(files.indexOf(u' ') + 1)), qPrintable(s.summary));
    }
}

void TestExtractiveSummarizer::onlyShellOutputIsSearched_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<QString>("output");
    QTest::addColumn<bool>("isError");
    QTest::addColumn<bool>("failed");
    const QString echoedCode = u"The file src/a.py has been updated. Result:\n  10  raise ValueError: bad\n  11  # exit code 2\n"_s;
    QTest::newRow("edit-echoing-code") << u"edit_file"_s << echoedCode << false << false;
    QTest::newRow("edit-error-first-line") << u"edit_file"_s << u"Error: old text not found in src/a.py"_s << false << true;
    QTest::newRow("edit-is-error") << u"edit_file"_s << u"could not apply"_s << true << true;
    QTest::newRow("read-of-a-log") << u"read_file"_s << u"Traceback (most recent call last):\nFAILED"_s << false << false;
    QTest::newRow("read-is-error") << u"read_file"_s << u"no such file"_s << true << true;
    QTest::newRow("other-tool-text") << u"web_fetch"_s << u"Exit code 2 shows stderr to the user"_s << false << false;
    QTest::newRow("other-tool-is-error") << u"web_fetch"_s << u"timeout"_s << true << true;
}

void TestExtractiveSummarizer::onlyShellOutputIsSearched()
{
    QFETCH(QString, tool);
    QFETCH(QString, output);
    QFETCH(bool, isError);
    QFETCH(bool, failed);
    const ParsedSummary s = ExtractiveSummarizer::summarize(oneCommand(tool, args({{u"path"_s, u"src/a.py"_s}}), output, isError));
    QCOMPARE(!isUnknownAnchorValue(s.anchors.value(AnchorKind::TriedSolution)), failed);
}

void TestExtractiveSummarizer::decisions_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("decisions");
    QTest::newRow("ill-use") << u"Looking at it. I'll use SQLite for storage. Then the schema."_s << u"- I'll use SQLite for storage."_s;
    QTest::newRow("curly-apostrophe") << u"Let’s use a ring buffer!"_s << u"- Let’s use a ring buffer!"_s;
    QTest::newRow("decided") << u"We decided to drop Python 2 support"_s << u"- We decided to drop Python 2 support"_s;
    QTest::newRow("instead-of") << u"Use std::span instead of raw pointers.\nNext line."_s << u"- Use std::span instead of raw pointers."_s;
    QTest::newRow("going-with") << u"Going with option B since it is simpler."_s << u"- Going with option B since it is simpler."_s;
    QTest::newRow("file-name-dot-not-an-end") << u"I chose main.cpp as the entry point."_s << u"- I chose main.cpp as the entry point."_s;
    QTest::newRow("cjk") << u"分析完毕。我们决定使用 Qt 而不是 GTK。然后继续。"_s << u"- 我们决定使用 Qt 而不是 GTK。"_s;
    QTest::newRow("no-choice") << u"Reading the file to understand it."_s << u"N/A"_s;
    QTest::newRow("only-the-latest-five")
        << u"I'll use plan a.\n\nI'll use plan b.\n\nI'll use plan c.\n\nI'll use plan d.\n\nI'll use plan e.\n\nI'll use plan f."_s
        << u"- I'll use plan b.\n- I'll use plan c.\n- I'll use plan d.\n- I'll use plan e.\n- I'll use plan f."_s;
    QTest::newRow("list-intro-is-not-a-decision") << u"Instead of:\n- a\n- b"_s << u"N/A"_s;
    QTest::newRow("switch-to") << u"The build is slow. Let's switch to Ninja for the build."_s << u"- Let's switch to Ninja for the build."_s;
    QTest::newRow("lets-go-with") << u"Let's go with the second layout."_s << u"- Let's go with the second layout."_s;
    QTest::newRow("we-should") << u"We should keep the old endpoint for one release."_s
                               << u"- We should keep the old endpoint for one release."_s;
    QTest::newRow("rather-than") << u"Parse it once rather than on every call."_s << u"- Parse it once rather than on every call."_s;
    QTest::newRow("need-to-use") << u"The test runs in another process. I need to use `:auto` mode."_s
                                 << u"- I need to use `:auto` mode."_s;
    QTest::newRow("ill-add") << u"I'll add a flash display inline in the template."_s << u"- I'll add a flash display inline in the template."_s;
    QTest::newRow("cjk-caiyong") << u"我们采用 SQLite 保存会话。"_s << u"- 我们采用 SQLite 保存会话。"_s;
    QTest::newRow("cjk-gaiyong") << u"编译太慢，改用 Ninja。"_s << u"- 编译太慢，改用 Ninja。"_s;
    // Near misses: looking, trying and asking decide nothing.
    QTest::newRow("ill-check-is-not-a-decision") << u"I'll check the logs first."_s << u"N/A"_s;
    QTest::newRow("ill-try-is-not-a-decision") << u"I'll try running it again."_s << u"N/A"_s;
    QTest::newRow("will-alone-is-not-a-decision") << u"This will take a while."_s << u"N/A"_s;
    QTest::newRow("switch-statement-is-not-a-decision") << u"The switch statement handles every case."_s << u"N/A"_s;
    QTest::newRow("cjk-choice-word-alone") << u"这里有一个选择。"_s << u"N/A"_s;
}

void TestExtractiveSummarizer::userConstraints_data()
{
    QTest::addColumn<QString>("request");
    QTest::addColumn<QString>("decisions");
    QTest::newRow("never") << u"Fix the login bug. Never touch the migrations folder."_s << u"- User: Never touch the migrations folder."_s;
    QTest::newRow("must") << u"You must keep the public API stable. Start with the parser."_s
                          << u"- User: You must keep the public API stable."_s;
    QTest::newRow("always") << u"Always run the linter before committing."_s << u"- User: Always run the linter before committing."_s;
    QTest::newRow("dont") << u"Don't add new dependencies."_s << u"- User: Don't add new dependencies."_s;
    QTest::newRow("cjk-buyao") << u"修复登录问题。不要修改数据库迁移。"_s << u"- User: 不要修改数据库迁移。"_s;
    QTest::newRow("cjk-bixu") << u"必须保持接口兼容。"_s << u"- User: 必须保持接口兼容。"_s;
    // Near misses: questions, reassurance and words that merely contain the letters.
    QTest::newRow("question") << u"Do you always use tabs?"_s << u"N/A"_s;
    QTest::newRow("dont-worry") << u"Don't worry about the old tests for now."_s << u"N/A"_s;
    QTest::newRow("mustard") << u"Rename the mustard module to sauce."_s << u"N/A"_s;
    QTest::newRow("cjk-question") << u"你必须这样做吗？"_s << u"N/A"_s;
}

void TestExtractiveSummarizer::userConstraints()
{
    QFETCH(QString, request);
    QFETCH(QString, decisions);
    const QList<Message> messages = numbered({Message::user(request), Message::assistant(u"Looking at the code."_s)}, 1);
    QCOMPARE(ExtractiveSummarizer::summarize(messages).anchors.value(AnchorKind::KeyDecision), decisions);
}

void TestExtractiveSummarizer::constraintsAreTheUsersOnly()
{
    // The assistant saying "never" reports; only the user's word constrains.
    const QList<Message> messages = numbered({Message::user(u"Look at the cache."_s),
                                              Message::assistant(u"The cache is never cleared on logout."_s)},
                                             1);
    QCOMPARE(ExtractiveSummarizer::summarize(messages).anchors.value(AnchorKind::KeyDecision), u"N/A"_s);
}

void TestExtractiveSummarizer::decisions()
{
    QFETCH(QString, text);
    QFETCH(QString, decisions);
    // Split the text over assistant messages at blank lines, as separate turns would be.
    QList<Message> messages{Message::user(u"go"_s)};
    for (const QString &part : text.split(u"\n\n"_s))
        messages << Message::assistant(part);
    QCOMPARE(ExtractiveSummarizer::summarize(numbered(messages, 1)).anchors.value(AnchorKind::KeyDecision), decisions);
}

void TestExtractiveSummarizer::nextSteps_data()
{
    QTest::addColumn<QList<Message>>("messages");
    QTest::addColumn<QString>("next");
    QTest::newRow("numbered") << numbered({Message::user(u"go"_s), Message::assistant(u"Plan:\n1. write tests\n2. fix bug\nDone for now."_s)}, 1)
                              << u"1. write tests\n2. fix bug"_s;
    QTest::newRow("checkboxes-and-bullets-under-header")
        << numbered({Message::user(u"go"_s), Message::assistant(u"Remaining work:\n- port the UI\n- [ ] ship\n\n- unrelated bullet"_s)}, 1)
        << u"- port the UI\n- [ ] ship"_s;
    QTest::newRow("next-line") << numbered({Message::user(u"go"_s), Message::assistant(u"Tests pass.\nNext, I will update the docs."_s)}, 1)
                               << u"- Next, I will update the docs."_s;
    QTest::newRow("last-assistant-with-a-plan-wins")
        << numbered({Message::user(u"go"_s), Message::assistant(u"TODO: old plan"_s), Message::assistant(u"TODO: new plan"_s)}, 1)
        << u"- TODO: new plan"_s;
    QTest::newRow("plan-before-latest-user-word-is-stale")
        << numbered({Message::user(u"go"_s), Message::assistant(u"TODO: old plan"_s), Message::user(u"stop, do X"_s)}, 1) << u"N/A"_s;
    QTest::newRow("update_plan-tool")
        << numbered({Message::user(u"go"_s),
                     Message::assistant(QString(), {call(u"p"_s, u"update_plan"_s,
                                                         args({{u"plan"_s, QJsonArray{QJsonObject{{u"step"_s, u"read code"_s}, {u"status"_s, u"completed"_s}},
                                                                                       QJsonObject{{u"step"_s, u"edit config"_s}, {u"status"_s, u"in_progress"_s}},
                                                                                       QJsonObject{{u"step"_s, u"run tests"_s}, {u"status"_s, u"pending"_s}}}}}))})},
                    1)
        << u"- edit config\n- run tests"_s;
    QTest::newRow("no-plan") << numbered({Message::user(u"go"_s), Message::assistant(u"All done."_s)}, 1) << u"N/A"_s;
    QTest::newRow("now-let-me") << numbered({Message::user(u"go"_s), Message::assistant(u"All 8 tests pass. Now let me run the full suite and credo."_s)}, 1)
                                << u"- Now let me run the full suite and credo."_s;
    QTest::newRow("intention-of-the-latest-text")
        << numbered({Message::user(u"go"_s), Message::assistant(u"Now let me read the config."_s),
                     Message::assistant(u"Config read. Next, I will update the router."_s)},
                    1)
        << u"- Next, I will update the router."_s;
    QTest::newRow("cjk-jiexialai") << numbered({Message::user(u"继续"_s), Message::assistant(u"测试通过。接下来我会更新文档。"_s)}, 1)
                                   << u"- 接下来我会更新文档。"_s;
    QTest::newRow("cjk-numbered") << numbered({Message::user(u"继续"_s), Message::assistant(u"计划：\n1. 修复解析器\n2. 运行测试"_s)}, 1)
                                  << u"1. 修复解析器\n2. 运行测试"_s;
    // Near misses: an offer to the user and a question are no plan.
    QTest::newRow("let-me-know-is-no-plan") << numbered({Message::user(u"go"_s), Message::assistant(u"Done. Let me know if you need more."_s)}, 1)
                                            << u"N/A"_s;
    QTest::newRow("question-is-no-plan") << numbered({Message::user(u"go"_s), Message::assistant(u"Should I now let me see the logs?"_s)}, 1)
                                         << u"N/A"_s;
    QTest::newRow("intention-before-latest-user-word-is-stale")
        << numbered({Message::user(u"go"_s), Message::assistant(u"Now let me run the tests."_s), Message::user(u"stop"_s)}, 1) << u"N/A"_s;
}

void TestExtractiveSummarizer::nextSteps()
{
    QFETCH(QList<Message>, messages);
    QFETCH(QString, next);
    QCOMPARE(ExtractiveSummarizer::summarize(messages).anchors.value(AnchorKind::NextStep), next);
}

void TestExtractiveSummarizer::triedThenRetried_data()
{
    QTest::addColumn<QList<Message>>("messages");
    QTest::addColumn<QString>("tried");
    const QString failedTest = u"1 failed, 4 passed\nexit code 1"_s;
    QTest::newRow("command-fails-then-passes")
        << numbered({Message::user(u"fix it"_s),
                     Message::assistant(QString(), {call(u"a"_s, u"bash"_s, args({{u"command"_s, u"pytest tests/a.py"_s}}))}),
                     Message::toolResult(u"a"_s, failedTest),
                     Message::assistant(u"The fixture is missing."_s, {call(u"b"_s, u"edit_file"_s, args({{u"path"_s, u"conftest.py"_s}}))}),
                     Message::toolResult(u"b"_s, u"ok"_s),
                     Message::assistant(QString(), {call(u"c"_s, u"bash"_s, args({{u"command"_s, u"pytest tests/a.py -x"_s}}))}),
                     Message::toolResult(u"c"_s, u"5 passed"_s)},
                    1)
        << u"- ran \"pytest tests/a.py\" failed: 1 failed, 4 passed \u2192 next: The fixture is missing. \u2192 then ran \"pytest tests/a.py -x\": passed"_s;
    QTest::newRow("fails-twice")
        << numbered({Message::user(u"build"_s),
                     Message::assistant(QString(), {call(u"a"_s, u"bash"_s, args({{u"command"_s, u"make all"_s}}))}),
                     Message::toolResult(u"a"_s, u"Error: no rule\nexit code 2"_s),
                     Message::assistant(QString(), {call(u"b"_s, u"bash"_s, args({{u"command"_s, u"make all"_s}}))}),
                     Message::toolResult(u"b"_s, u"Error: still no rule\nexit code 2"_s)},
                    1)
        << u"- ran \"make all\" failed: Error: no rule \u2192 then ran \"make all\": failed\n"
           u"- ran \"make all\" failed: Error: still no rule"_s;
    QTest::newRow("edit-fails-then-applies")
        << numbered({Message::user(u"edit"_s),
                     Message::assistant(QString(), {call(u"a"_s, u"edit_file"_s, args({{u"path"_s, u"src/x.c"_s}}))}),
                     Message::toolResult(u"a"_s, u"Error: old text not found"_s),
                     Message::assistant(QString(), {call(u"b"_s, u"edit_file"_s, args({{u"path"_s, u"src/x.c"_s}}))}),
                     Message::toolResult(u"b"_s, u"edited"_s)},
                    1)
        << u"- edited src/x.c failed: Error: old text not found \u2192 then edited src/x.c: passed"_s;
    // Near miss: another command afterwards is no second attempt.
    QTest::newRow("unrelated-command-is-no-retry")
        << numbered({Message::user(u"go"_s),
                     Message::assistant(QString(), {call(u"a"_s, u"bash"_s, args({{u"command"_s, u"cargo test"_s}}))}),
                     Message::toolResult(u"a"_s, u"exit code 101"_s),
                     Message::assistant(QString(), {call(u"b"_s, u"bash"_s, args({{u"command"_s, u"git status"_s}}))}),
                     Message::toolResult(u"b"_s, u"clean"_s)},
                    1)
        << u"- ran \"cargo test\" failed: exit code 101 \u2192 next: ran \"git status\""_s;
}

void TestExtractiveSummarizer::triedThenRetried()
{
    QFETCH(QList<Message>, messages);
    QFETCH(QString, tried);
    QCOMPARE(ExtractiveSummarizer::summarize(messages).anchors.value(AnchorKind::TriedSolution), tried);
}

void TestExtractiveSummarizer::artifactTrail()
{
    // Each file once, by the most done to it: read then edited is edited, written first is created,
    // a failed read or edit touched nothing.
    const QString root = u"/home/u/proj/"_s;
    auto step = [](const QString &id, const QString &tool, const QString &path) {
        return Message::assistant(QString(), {call(id, tool, args({{u"file_path"_s, path}}))});
    };
    const QList<Message> messages = numbered(
        {Message::user(u"add the feature"_s),
         step(u"1"_s, u"Read"_s, root + u"lib/a.ex"_s), Message::toolResult(u"1"_s, u"defmodule A"_s),
         step(u"2"_s, u"Read"_s, root + u"lib/b.ex"_s), Message::toolResult(u"2"_s, u"defmodule B"_s),
         step(u"3"_s, u"Edit"_s, root + u"lib/a.ex"_s), Message::toolResult(u"3"_s, u"updated"_s),
         step(u"4"_s, u"Write"_s, root + u"lib/c.ex"_s), Message::toolResult(u"4"_s, u"File created successfully"_s),
         step(u"5"_s, u"Edit"_s, root + u"lib/c.ex"_s), Message::toolResult(u"5"_s, u"updated"_s),
         step(u"6"_s, u"Read"_s, root + u"lib/gone.ex"_s), Message::toolResult(u"6"_s, u"File does not exist."_s, true),
         step(u"7"_s, u"Edit"_s, root + u"lib/d.ex"_s), Message::toolResult(u"7"_s, u"Error: old_string not found"_s, true),
         step(u"8"_s, u"Write"_s, root + u"lib/b.ex"_s), Message::toolResult(u"8"_s, u"updated"_s)},
        1);
    const QString progress = ExtractiveSummarizer::summarize(messages).anchors.value(AnchorKind::ExecutionProgress);
    QCOMPARE(progress, u"- Files (in /home/u/proj/lib/): created c.ex; edited a.ex, b.ex"_s);
}

void TestExtractiveSummarizer::earlierDecisionsSurviveALaterSummary()
{
    Checkpoint previous;
    previous.anchors.setValue(AnchorKind::UserIntent, u"Port the storage layer"_s);
    previous.anchors.setValue(AnchorKind::KeyDecision, u"- I'll use SQLite for storage.\n- User: Never touch the migrations folder."_s);
    previous.anchors.setValue(AnchorKind::TriedSolution, u"- ran \"make\" failed: exit code 2"_s);
    previous.summary = u"Storage ported."_s;
    const QList<Message> history = numbered(
        {Message::assistant(u"Let's go with WAL mode for concurrency."_s),
         Message::assistant(QString(), {call(u"c1"_s, u"bash"_s, args({{u"command"_s, u"ctest -R store"_s}}))}),
         Message::toolResult(u"c1"_s, u"1 failed\nexit code 8"_s)},
        40);
    QList<const Message *> messages;
    for (const Message &m : history)
        messages << &m;
    const ParsedSummary s = SummaryChain::extractive(messages, &previous);
    QCOMPARE(s.anchors.value(AnchorKind::KeyDecision),
             u"- I'll use SQLite for storage.\n- User: Never touch the migrations folder.\n- Let's go with WAL mode for concurrency."_s);
    const QString tried = s.anchors.value(AnchorKind::TriedSolution);
    QVERIFY2(tried.startsWith(u"- ran \"make\" failed: exit code 2\n- ran \"ctest -R store\" failed: 1 failed"_s), qPrintable(tried));

    // And the checkpoint merge keeps them: the new anchors hold the old items.
    const AnchorMerge merged = mergeAnchors(previous.anchors, s.anchors);
    QVERIFY(merged.anchors.value(AnchorKind::KeyDecision).contains(u"I'll use SQLite for storage."_s));
    QCOMPARE(merged.changes[size_t(AnchorKind::KeyDecision)], AnchorChange::Updated);

    // Bounded: many later decisions push the oldest out, never past the anchor's size.
    Checkpoint full = previous;
    QStringList many;
    for (int i = 0; i < 12; ++i)
        many << u"- I'll use approach number %1 for the parser with a long explanation of why it is right."_s.arg(i);
    full.anchors.setValue(AnchorKind::KeyDecision, many.join(u'\n'));
    const ParsedSummary bounded = SummaryChain::extractive(messages, &full);
    QVERIFY(bounded.anchors.value(AnchorKind::KeyDecision).size() <= ExtractiveSummarizer::kMaxAnchorChars);
    QVERIFY(bounded.anchors.value(AnchorKind::KeyDecision).endsWith(u"- Let's go with WAL mode for concurrency."_s));
}

void TestExtractiveSummarizer::demoAnchorsAreFilled()
{
    // The demo session (resources/demo/demo-transcript.jsonl is this transcript) replayed as the
    // demo replays it (DemoSession::policy(): a 30,000-token window, nothing offloaded at tool
    // time; no overhead). Its transcript holds decisions, failed attempts and plans: the
    // compactions must show them.
    const ImportResult imported = TranscriptFormats::importFile(
        QStringLiteral(WATERLINE_TEST_DATA) + u"/replay/claude-code/258c7280-ae70-4798-800f-63464d01a85d.jsonl"_s);
    QVERIFY2(imported.ok, qPrintable(imported.error));
    ReplayInput in = ReplayInput::fromImport(imported.session);
    in.overheadTokens = 0;
    CompactionPolicy policy;
    policy.contextWindow = 30000;
    policy.offloadAtToolTime = 1'000'000;
    const SimulationResult result = Simulator::simulate(in.simulatorInput(policy, SummaryModel::extractive()));

    QStringList seen;
    std::array<int, kAnchorCount> filled{};
    int triedWithOutcome = 0; // a failed attempt followed by the next one and how it went
    for (int r = 0; r < result.rows.size(); ++r) {
        for (const Checkpoint &cp : result.overlaysAt(r).checkpoints) {
            if (seen.contains(cp.text))
                continue;
            seen << cp.text;
            for (AnchorKind kind : kAllAnchorKinds)
                filled[size_t(kind)] += isUnknownAnchorValue(cp.anchors.value(kind)) ? 0 : 1;
            triedWithOutcome += cp.anchors.value(AnchorKind::TriedSolution).contains(u": passed"_s) ? 1 : 0;
        }
    }
    qInfo("demo: %lld compactions; filled: intent %d, progress %d, decisions %d, tried %d, next %d", qlonglong(seen.size()),
          filled[0], filled[1], filled[2], filled[3], filled[4]);
    QVERIFY(seen.size() >= 5);
    for (AnchorKind kind : kAllAnchorKinds)
        QVERIFY2(filled[size_t(kind)] >= kDemoFilled[size_t(kind)], qPrintable(anchorHeader(kind)));
    QVERIFY2(triedWithOutcome >= 2, qPrintable(QString::number(triedWithOutcome)));
}

void TestExtractiveSummarizer::commonRoot_data()
{
    QTest::addColumn<QStringList>("paths");
    QTest::addColumn<QString>("root");
    QTest::addColumn<QString>("files");
    QTest::newRow("shared-project") << QStringList{u"/home/u/proj/src/a.cpp"_s, u"/home/u/proj/src/b.cpp"_s, u"/home/u/proj/README.md"_s}
                                    << u"/home/u/proj/"_s << u"src/a.cpp, src/b.cpp, README.md"_s;
    QTest::newRow("one-file") << QStringList{u"/home/u/proj/main.go"_s} << u"/home/u/proj/"_s << u"main.go"_s;
    QTest::newRow("too-shallow") << QStringList{u"/tmp/a"_s, u"/tmp/b"_s} << QString() << u"/tmp/a, /tmp/b"_s;
    QTest::newRow("reads-do-not-move-the-root") << QStringList{u"/home/u/proj/a.c"_s, u"read:/tmp/x.log"_s, u"read:/home/u/proj/b.h"_s}
                                                << u"/home/u/proj/"_s << u"a.c"_s;
    QTest::newRow("reads-in-the-project-widen-the-root")
        << QStringList{u"/home/u/proj/src/a.c"_s, u"read:/home/u/proj/docs/x.md"_s, u"read:/home/u/other/y.md"_s} << u"/home/u/proj/"_s
        << u"src/a.c"_s;
    QTest::newRow("mixed-relative") << QStringList{u"/home/u/proj/a"_s, u"b"_s} << QString() << u"/home/u/proj/a, b"_s;
    QTest::newRow("prefix-is-not-a-folder") << QStringList{u"/srv/app/x/one"_s, u"/srv/app/xy/two"_s} << u"/srv/app/"_s
                                            << u"x/one, xy/two"_s;
}

void TestExtractiveSummarizer::commonRoot()
{
    QFETCH(QStringList, paths);
    QFETCH(QString, root);
    QFETCH(QString, files);
    QList<Message> messages{Message::user(u"edit them"_s)};
    QStringList reads;
    for (int i = 0; i < paths.size(); ++i) {
        // "read:<path>" rows are read_file calls, the others writes.
        const bool read = paths[i].startsWith(u"read:"_s);
        const QString path = read ? paths[i].sliced(5) : paths[i];
        if (read)
            reads << (path.startsWith(root) && !root.isEmpty() ? path.sliced(root.size()) : path);
        messages << Message::assistant(QString(), {call(u"c%1"_s.arg(i), read ? u"read_file"_s : u"write_file"_s, args({{u"path"_s, path}}))});
        messages << Message::toolResult(u"c%1"_s.arg(i), u"ok"_s);
    }
    const ParsedSummary s = ExtractiveSummarizer::summarize(numbered(messages, 1));
    const QString progress = s.anchors.value(AnchorKind::ExecutionProgress);
    const QString readPart = reads.isEmpty() ? QString() : u"; read "_s + reads.join(u", "_s);
    if (root.isEmpty()) {
        QCOMPARE(progress, u"- Files: created "_s + files + readPart);
        QVERIFY(!s.summary.contains(u"relative to"_s));
    } else {
        QCOMPARE(progress, u"- Files (in "_s + root + u"): created "_s + files + readPart);
        QVERIFY2(s.summary.startsWith(u"File paths are relative to "_s + root + u'\n'), qPrintable(s.summary));
        QVERIFY2(s.summary.contains(u"edited "_s + files), qPrintable(s.summary));
    }
    if (!reads.isEmpty())
        QVERIFY2(s.summary.contains(u"read "_s + reads.join(u", "_s)), qPrintable(s.summary));
}

void TestExtractiveSummarizer::injectedUserTextIsNotIntent()
{
    const QList<Message> messages = numbered({Message::user(u"<task-notification>done</task-notification>"_s),
                                              Message::user(u"Caveat: The messages below were generated by the user while running local commands."_s),
                                              Message::user(u"This session is being continued from a previous conversation that ran out of context."_s),
                                              Message::user(u"Make the build reproducible."_s),
                                              Message::user(u"[Request interrupted by user]"_s)},
                                             1);
    const ParsedSummary s = ExtractiveSummarizer::summarize(messages);
    QCOMPARE(s.anchors.value(AnchorKind::UserIntent), u"Make the build reproducible."_s);
    QVERIFY2(s.summary.contains(u"Messages 1-3: no actions\nMessages 4-5: user asked \"Make the build reproducible.\""_s), qPrintable(s.summary));
}

void TestExtractiveSummarizer::messageLabels()
{
    // Stored messages are named by id; unsaved ones (id 0) by their 1-based position.
    QList<Message> unsaved{Message::user(u"a"_s), Message::assistant(u"b"_s), Message::user(u"c"_s)};
    QCOMPARE(ExtractiveSummarizer::summarize(unsaved).summary,
             u"Messages 1-2: user asked \"a\"\nMessage 3: user asked \"c\""_s);
    QCOMPARE(ExtractiveSummarizer::summarize(numbered(unsaved, 700)).summary,
             u"Messages 700-701: user asked \"a\"\nMessage 702: user asked \"c\""_s);
}

void TestExtractiveSummarizer::emptyInput()
{
    const ParsedSummary s = ExtractiveSummarizer::summarize({});
    for (AnchorKind kind : kAllAnchorKinds)
        QCOMPARE(s.anchors.value(kind), u"N/A"_s);
    QVERIFY(s.summary.isEmpty());
}

void TestExtractiveSummarizer::outputBounded()
{
    QList<Message> messages;
    for (int turn = 0; turn < 400; ++turn) {
        messages << Message::user(u"Request %1: "_s.arg(turn) + QString(300, u'u'));
        const QString id = u"call_%1"_s.arg(turn);
        messages << Message::assistant(u"I'll use approach %1 instead of the old one. "_s.arg(turn) + QString(5000, u'a')
                                           + u"\nNext steps:\n- step one of %1\n- step two\n"_s.arg(turn),
                                       {call(id, u"bash"_s, args({{u"command"_s, QString(u"make target_%1 "_s.arg(turn) + QString(400, u'm'))}})),
                                        call(id + u"e"_s, u"write_file"_s, args({{u"path"_s, QString(u"src/file_%1_"_s.arg(turn) + QString(300, u'p'))}}))});
        messages << Message::toolResult(id, turn % 3 ? u"ok"_s : u"Error: broken "_s + QString(2000, u'e'));
        messages << Message::toolResult(id + u"e"_s, u"written"_s);
    }
    const ParsedSummary s = ExtractiveSummarizer::summarize(numbered(messages, 1));
    for (AnchorKind kind : kAllAnchorKinds) {
        QVERIFY2(s.anchors.value(kind).size() <= ExtractiveSummarizer::kMaxAnchorChars, qPrintable(anchorKey(kind)));
        QVERIFY2(!isUnknownAnchorValue(s.anchors.value(kind)), qPrintable(anchorKey(kind)));
    }
    QVERIFY(s.summary.size() <= ExtractiveSummarizer::kMaxSummaryChars);
    // The first turn is kept: its request, the assistant's calls and their two results.
    QVERIFY2(s.summary.startsWith(u"Messages 1-4: user asked \"Request 0: "_s), qPrintable(s.summary.left(200)));
    QVERIFY2(s.summary.contains(u"more turns left out)"_s), qPrintable(s.summary));
    QVERIFY2(s.summary.contains(u"Messages 1597-1600"_s), qPrintable(s.summary.right(400))); // the newest turn stays
    // The latest decisions and plans are the ones kept.
    QVERIFY(s.anchors.value(AnchorKind::KeyDecision).contains(u"approach 399"_s));
    QVERIFY(s.anchors.value(AnchorKind::NextStep).contains(u"step one of 399"_s));
}

void TestExtractiveSummarizer::cjkNotSplit()
{
    // 2,000 CJK characters with astral ones (surrogate pairs) at every other position around each cut point.
    QString request;
    for (int i = 0; i < 1000; ++i)
        request += u"压𠀀"_s;
    // The first n characters (not UTF-16 units) of the request: the input itself is well formed.
    auto prefix = [&request](int n) {
        const qsizetype units = (n / 2) * 3 + (n % 2);
        return request.left(units);
    };
    QList<Message> messages{Message::user(request)};
    for (int i = 0; i < 30; ++i) {
        messages << Message::assistant(u"我们决定使用方案"_s + QString::number(i) + prefix(i * 17 + 1) + u"。"_s,
                                       {call(u"c%1"_s.arg(i), u"bash"_s, args({{u"command"_s, QString(u"运行"_s + prefix(i * 13 + 3))}}))});
        messages << Message::toolResult(u"c%1"_s.arg(i), i % 2 ? u"错误"_s + prefix(i * 11 + 1) + u"\nexit code 1"_s : u"完成"_s);
        messages << Message::user(u"继续𠀀"_s + prefix(i * 7 + 1));
    }
    for (const Message &m : std::as_const(messages)) {
        QVERIFY(wellFormedUtf16(m.content));
        for (const ToolCall &c : m.toolCalls)
            QVERIFY(wellFormedUtf16(c.arguments));
    }
    const ParsedSummary s = ExtractiveSummarizer::summarize(numbered(messages, 1));
    for (AnchorKind kind : kAllAnchorKinds)
        QVERIFY2(wellFormedUtf16(s.anchors.value(kind)), qPrintable(anchorKey(kind)));
    QVERIFY(wellFormedUtf16(s.summary));
    const QString intent = s.anchors.value(AnchorKind::UserIntent);
    const QString firstLine = intent.section(u'\n', 0, 0);
    QVERIFY(firstLine.endsWith(u'\u2026'));
    QVERIFY(request.startsWith(firstLine.chopped(1))); // a clean prefix of the request
    QVERIFY(s.anchors.value(AnchorKind::KeyDecision).contains(u"我们决定使用方案29"_s));
    QVERIFY(s.anchors.value(AnchorKind::TriedSolution).contains(u"failed"_s));
    // The text still parses back exactly.
    const ParsedSummary back = parseAnchorsAndSummary(ExtractiveSummarizer::toText(s));
    QCOMPARE(back.anchors, s.anchors);
    QCOMPARE(back.summary, s.summary);
}

QTEST_GUILESS_MAIN(TestExtractiveSummarizer)
#include "tst_extractivesummarizer.moc"
