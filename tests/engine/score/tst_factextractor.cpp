// The fact extractor on hand-written histories: each kind, near misses, Chinese and other non-ASCII text.
#include "score/FactExtractor.h"
#include "score/NeededFacts.h"

#include "model/Message.h"

#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

QList<Message> withIds(QList<Message> history)
{
    for (qsizetype i = 0; i < history.size(); ++i)
        history[i].id = i + 1;
    return history;
}

const Fact *find(const QList<Fact> &facts, const QString &key)
{
    for (const Fact &f : facts) {
        if (f.key == key)
            return &f;
    }
    return nullptr;
}

QStringList keysOf(const QList<Fact> &facts, Fact::Kind kind)
{
    QStringList keys;
    for (const Fact &f : facts) {
        if (f.kind == kind)
            keys << f.key;
    }
    return keys;
}

} // namespace

class TestFactExtractor : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void englishInstructions();
    void englishNearMisses();
    void chineseInstructions();
    void shortMessageIsAnInstructionWhole();
    void artifactsWithTheirOperation();
    void outcomesWithExitStatusAndErrorLines();
    void identifiersUsedAgain();
    void identifierNearMisses();
    void nonAsciiQuotedString();
    void neededFactsAreThoseTheAnswerUsed();
};

void TestFactExtractor::englishInstructions()
{
    const QString text = u"We looked at the parser yesterday and it seemed fine. Please keep the public API stable. "
                         u"The weather is nice today! You must never edit config.yaml by hand. Make sure the tests pass."_s;
    QCOMPARE(FactExtractor::instructions(text),
             (QStringList{u"Please keep the public API stable"_s, u"You must never edit config.yaml by hand"_s,
                          u"Make sure the tests pass"_s}));
}

void TestFactExtractor::englishNearMisses()
{
    // "mustard", "pleased", "evermore", "insurance", "dont" inside a word: no constraint word.
    const QString text = u"The mustard was pleased with the playoffs and the evermore insurance plan. "
                         u"Nobody knows what happens at the dontology conference next year in town."_s;
    QVERIFY(text.size() > 80);
    QCOMPARE(FactExtractor::instructions(text), QStringList());
}

void TestFactExtractor::chineseInstructions()
{
    // 申请 (apply) holds 请 and 别人 (others) holds 别: neither is an instruction.
    const QString text = u"我们先看了一下整个项目的代码结构，也读了数据库迁移的历史记录和最近几次提交的说明，然后再讨论下一步的计划。"
                         u"不要修改数据库的表结构。他昨天申请了一个新的账号，别人也在用这台测试服务器。请务必保留原有的接口！"
                         u"最后一定要跑一遍测试"_s;
    QVERIFY(text.size() > 80);
    QCOMPARE(FactExtractor::instructions(text),
             (QStringList{u"不要修改数据库的表结构"_s, u"请务必保留原有的接口"_s, u"最后一定要跑一遍测试"_s}));
}

void TestFactExtractor::shortMessageIsAnInstructionWhole()
{
    QCOMPARE(FactExtractor::instructions(u"  ship it to staging-eu-2  "_s), QStringList{u"ship it to staging-eu-2"_s});
    QCOMPARE(FactExtractor::instructions(u"修一下这个问题"_s), QStringList{u"修一下这个问题"_s});
    // Injected markup is not a prompt of the user.
    const QList<Fact> facts = FactExtractor::extract(withIds({Message::user(u"<command-name>/clear</command-name>"_s)}));
    QVERIFY(keysOf(facts, Fact::Kind::Instruction).isEmpty());
}

void TestFactExtractor::artifactsWithTheirOperation()
{
    const QList<Message> history = withIds({
        Message::user(u"Tidy the handlers."_s),
        Message::assistant(QString(), {{u"c1"_s, u"read_file"_s, uR"({"path":"src/api/handler.go"})"_s, true}}),
        Message::toolResult(u"c1"_s, u"package api"_s),
        Message::assistant(QString(), {{u"c2"_s, u"edit_file"_s, uR"({"path":"src/api/handler.go","old":"a","new":"b"})"_s, true},
                                       {u"c3"_s, u"write_file"_s, uR"({"path":"docs/API.md","content":"x"})"_s, true}}),
        Message::toolResult(u"c2"_s, u"ok"_s),
        Message::toolResult(u"c3"_s, u"ok"_s),
    });
    const QList<Fact> facts = FactExtractor::extract(history);
    const Fact *handler = find(facts, u"src/api/handler.go"_s);
    QVERIFY(handler);
    QCOMPARE(handler->kind, Fact::Kind::Artifact);
    QCOMPARE(handler->text, u"read src/api/handler.go"_s); // its first operation
    QCOMPARE(handler->message, 1);
    QCOMPARE(handler->occurrences, (QList<qsizetype>{1, 3}));
    const Fact *doc = find(facts, u"docs/API.md"_s);
    QVERIFY(doc);
    QCOMPARE(doc->kind, Fact::Kind::Artifact);
    QCOMPARE(doc->text, u"write docs/API.md"_s);
    QCOMPARE(doc->message, 3);
}

void TestFactExtractor::outcomesWithExitStatusAndErrorLines()
{
    const QList<Message> history = withIds({
        Message::assistant(QString(), {{u"c1"_s, u"bash"_s, uR"({"command":"make test"})"_s, true}}),
        Message::toolResult(u"c1"_s, u"building\nsrc/a.cpp:12:3: error: expected ';'\nok 3 tests\n[exit code: 2]"_s),
        Message::assistant(QString(), {{u"c2"_s, u"bash"_s, uR"({"command":"ls"})"_s, true}}),
        Message::toolResult(u"c2"_s, u"a\nb\n[exit code: 0]"_s),
        Message::assistant(QString(), {{u"c3"_s, u"Bash"_s, uR"({"command":"cargo build"})"_s, true}}),
        Message::toolResult(u"c3"_s, u"error[E0425]: cannot find value `x` in this scope"_s, true),
    });
    const QList<Fact> facts = FactExtractor::extract(history);
    QCOMPARE(keysOf(facts, Fact::Kind::Outcome),
             (QStringList{u"make test"_s, u"src/a.cpp:12:3: error: expected ';'"_s, u"ls"_s, u"cargo build"_s,
                          u"error[E0425]: cannot find value `x` in this scope"_s}));
    QCOMPARE(find(facts, u"make test"_s)->text, u"`make test` exited 2"_s);
    QCOMPARE(find(facts, u"make test"_s)->message, 1); // established by the result
    QCOMPARE(find(facts, u"ls"_s)->text, u"`ls` exited 0"_s);
    QCOMPARE(find(facts, u"cargo build"_s)->text, u"`cargo build` failed"_s);
    // "ok 3 tests" of a failed run is not an error line.
    QVERIFY(!find(facts, u"ok 3 tests"_s));
}

void TestFactExtractor::identifiersUsedAgain()
{
    const QList<Message> history = withIds({
        Message::user(u"Why does the import fail?"_s),
        Message::assistant(QString(), {{u"c1"_s, u"bash"_s, uR"({"command":"git log -1"})"_s, true}}),
        Message::toolResult(u"c1"_s, u"commit 9f3c2ab1e7d4\nSee https://example.com/issues/4711 and parse_config in \"load the file\".\n"
                                    u"Port 8080, version 2.3.1, ticket 1234.\n"_s),
        Message::assistant(u"Commit 9f3c2ab1e7d4 changed parse_config; the service listens on 8080 (2.3.1)."_s),
    });
    const QList<Fact> facts = FactExtractor::extract(history);
    QCOMPARE(keysOf(facts, Fact::Kind::Identifier), (QStringList{u"9f3c2ab1e7d4"_s, u"parse_config"_s, u"8080"_s, u"2.3.1"_s}));
    const Fact *hash = find(facts, u"9f3c2ab1e7d4"_s);
    QCOMPARE(hash->message, 2);
    QCOMPARE(hash->occurrences, (QList<qsizetype>{2, 3}));
    // Named once only: not facts.
    QVERIFY(!find(facts, u"https://example.com/issues/4711"_s));
    QVERIFY(!find(facts, u"1234"_s));
    QVERIFY(!find(facts, u"load the file"_s));
}

void TestFactExtractor::identifierNearMisses()
{
    // Plain words, short numbers, hex-looking words without a digit, JSON keys: never tokens.
    QCOMPARE(FactExtractor::tokens(u"Hello world, deadbeef is 42 and \"name\": \"value\" and/or e.g. this"_s), QStringList());
    QCOMPARE(FactExtractor::tokens(u"see src/a.go. Call fooBar() or Foo::bar, at http://x.io/a."_s),
             (QStringList{u"src/a.go"_s, u"fooBar"_s, u"Foo::bar"_s, u"http://x.io/a"_s}));
    // An identifier the assistant brought up first is its own, not an established fact.
    const QList<Fact> facts = FactExtractor::extract(withIds({
        Message::assistant(u"I will add retry_budget."_s),
        Message::user(u"Fine, but keep retry_budget small and the logs quiet, we pay for storage there."_s),
        Message::assistant(u"retry_budget = 3"_s),
    }));
    QVERIFY(!find(facts, u"retry_budget"_s));
}

void TestFactExtractor::nonAsciiQuotedString()
{
    const QList<Message> history = withIds({
        Message::user(u"昨天我们讨论了很多关于文档结构的问题，今天想把 \"上下文 窗口\" 的说明写进文档里，还有 `café_größe` "
                      u"这个配置项也要写上，谢谢大家的帮助和耐心，下周我们再一起看看剩下的部分。"_s),
        Message::assistant(u"已写入 \"上下文 窗口\" 和 café_größe 的说明。"_s),
    });
    const QList<Fact> facts = FactExtractor::extract(history);
    const Fact *quoted = find(facts, u"上下文 窗口"_s);
    QVERIFY(quoted);
    QCOMPARE(quoted->kind, Fact::Kind::Identifier);
    QCOMPARE(quoted->message, 0);
    // The user message is long and holds 要 but no instruction word ("也要" is not one): no instruction.
    QVERIFY(keysOf(facts, Fact::Kind::Instruction).isEmpty());
    const QList<QList<int>> needed = NeededFacts::compute(history, facts, {1});
    QCOMPARE(needed.size(), 1);
    QVERIFY(needed[0].contains(int(quoted - facts.constData())));
}

void TestFactExtractor::neededFactsAreThoseTheAnswerUsed()
{
    const QList<Message> history = withIds({
        Message::user(u"Find where load_settings is defined."_s),
        Message::assistant(QString(), {{u"c1"_s, u"bash"_s, uR"({"command":"grep -rn load_settings src"})"_s, true}}),
        Message::toolResult(u"c1"_s, u"src/config/loader.py:12: def load_settings(path)\n[exit code: 0]"_s),
        Message::assistant(u"It is in src/config/loader.py."_s),
        Message::user(u"Thanks. What is unrelated_name?"_s),
        Message::assistant(u"No idea."_s),
    });
    const QList<Fact> facts = FactExtractor::extract(history);
    // Requests: the call (saw 1 message), the answer (saw 3), the last answer (saw 5).
    const QList<QList<int>> needed = NeededFacts::compute(history, facts, {1, 3, 5});
    auto keys = [&](int r) {
        QStringList out;
        for (int f : needed[r])
            out << facts[f].key;
        out.sort();
        return out;
    };
    // The call's arguments use load_settings, named by the user (the instruction's term too).
    QCOMPARE(keys(0), (QStringList{u"Find where load_settings is defined"_s, u"load_settings"_s}));
    QCOMPARE(keys(1), QStringList{u"src/config/loader.py"_s});
    QCOMPARE(keys(2), QStringList());
}

QTEST_GUILESS_MAIN(TestFactExtractor)
#include "tst_factextractor.moc"
