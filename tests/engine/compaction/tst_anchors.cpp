#include "compaction/Anchors.h"
#include "compaction/Checkpoint.h"
#include "compaction/OffloadStore.h"
#include "model/Utf8.h"

#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
QStringList anchorValues(const Anchors &anchors)
{
    QStringList out;
    for (AnchorKind kind : kAllAnchorKinds)
        out << anchors.value(kind);
    return out;
}

Anchors anchorsOf(const QStringList &values)
{
    Anchors anchors;
    for (AnchorKind kind : kAllAnchorKinds)
        anchors.setValue(kind, values.at(int(kind)));
    return anchors;
}

const QStringList allNA{u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s};

// A well-formed summariser answer (reference scenario 12).
const QString wellFormed = uR"(Here is the compacted context.

## Anchors
### User Intent
- Build a REST API for the todo service

### Execution Progress
- Created main.go and handlers.go

### Key Decisions
- Use the chi router instead of gorilla/mux

### Tried Solutions
- go build failed on a missing import, fixed by go mod tidy

### Next Steps
- Add tests for the DELETE handler

## Summary
The project targets Go 1.25 and keeps handlers small.

## Offloaded References
- .waterline/tool_results/s1/call_7.txt (1000 lines, 48890 bytes)
)"_s;
} // namespace

class TestAnchors : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keysAndHeaders_data();
    void keysAndHeaders();
    void changeNames();

    void wellFormedAnswer();
    void parse_data();
    void parse();

    void unknownValues_data();
    void unknownValues();

    void merge_data();
    void merge();
    void followUpNeverReplacesIntent_data();
    void followUpNeverReplacesIntent();

    void formatParsesBack_data();
    void formatParsesBack();
    void headingLikeValueEscaped();

    void jsonRoundTrip();
    void jsonMissingKeysAreNA();

    void checkpointTextExact();
    void checkpointBytesWithoutText();
    void checkpointRoundTrip_data();
    void checkpointRoundTrip();
    void checkpointDetection_data();
    void checkpointDetection();
};

void TestAnchors::keysAndHeaders_data()
{
    QTest::addColumn<AnchorKind>("kind");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("header");
    QTest::newRow("intent") << AnchorKind::UserIntent << u"user_intent"_s << u"User Intent"_s;
    QTest::newRow("progress") << AnchorKind::ExecutionProgress << u"execution_progress"_s << u"Execution Progress"_s;
    QTest::newRow("decision") << AnchorKind::KeyDecision << u"key_decision"_s << u"Key Decisions"_s;
    QTest::newRow("tried") << AnchorKind::TriedSolution << u"tried_solution"_s << u"Tried Solutions"_s;
    QTest::newRow("next") << AnchorKind::NextStep << u"next_step"_s << u"Next Steps"_s;
}

void TestAnchors::keysAndHeaders()
{
    QFETCH(AnchorKind, kind);
    QFETCH(QString, key);
    QFETCH(QString, header);
    QCOMPARE(anchorKey(kind), key);
    QCOMPARE(anchorHeader(kind), header);
}

void TestAnchors::changeNames()
{
    const QList<std::pair<AnchorChange, QString>> expected{
        {AnchorChange::New, u"new"_s}, {AnchorChange::Updated, u"updated"_s},
        {AnchorChange::Unchanged, u"unchanged"_s}, {AnchorChange::Kept, u"kept"_s}};
    for (const auto &[change, name] : expected) {
        QCOMPARE(anchorChangeName(change), name);
        AnchorChange back = change == AnchorChange::New ? AnchorChange::Kept : AnchorChange::New;
        QVERIFY(anchorChangeFromName(name, &back));
        QCOMPARE(back, change);
    }
    AnchorChange untouched = AnchorChange::Updated;
    QVERIFY(!anchorChangeFromName(u"Kept"_s, &untouched));
    QCOMPARE(untouched, AnchorChange::Updated);
}

void TestAnchors::wellFormedAnswer()
{
    // Reference scenario 12.
    const ParsedSummary parsed = parseAnchorsAndSummary(wellFormed);
    QVERIFY(parsed.structured);
    for (AnchorKind kind : kAllAnchorKinds)
        QVERIFY2(!isUnknownAnchorValue(parsed.anchors.value(kind)), qPrintable(anchorKey(kind)));
    QVERIFY(parsed.anchors.value(AnchorKind::UserIntent).contains(u"Build a REST API"_s));
    QVERIFY(parsed.anchors.value(AnchorKind::KeyDecision).contains(u"chi router"_s));
    QCOMPARE(parsed.anchors.value(AnchorKind::NextStep), u"- Add tests for the DELETE handler"_s);
    QVERIFY(parsed.summary.contains(u"Go 1.25"_s));
    QVERIFY(parsed.summary.contains(u"## Offloaded References"_s));
    QVERIFY(parsed.summary.contains(u"call_7.txt (1000 lines, 48890 bytes)"_s));
    QVERIFY(!parsed.summary.startsWith(u'\n'));
    QVERIFY(!parsed.summary.endsWith(u'\n'));
    // Text before the first heading is not part of any anchor.
    QVERIFY(!parsed.anchors.value(AnchorKind::UserIntent).contains(u"Here is"_s));
}

void TestAnchors::parse_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("anchors");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<bool>("structured");

    // Reference scenario 13.
    QTest::newRow("only-intent") << u"### User Intent\nDo something\n## Summary\nKept summary."_s
                                 << QStringList{u"Do something"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s}
                                 << u"Kept summary."_s << true;
    QTest::newRow("only-intent-no-summary") << u"### User Intent\nDo something\n"_s
                                            << QStringList{u"Do something"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s}
                                            << QString() << true;
    // Reference scenario 14.
    QTest::newRow("unstructured") << u"I could not summarise this conversation, sorry.\nIt was long."_s << allNA
                                  << QString() << false;
    QTest::newRow("empty") << QString() << allNA << QString() << false;
    QTest::newRow("summary-only") << u"## Summary\n  just this  \n\n"_s << allNA << u"just this"_s << true;
    QTest::newRow("summary-case-insensitive") << u"## summary\nx"_s << allNA << u"x"_s << true;
    QTest::newRow("singular-and-case") << u"### user intent\na\n### EXECUTION PROGRESS\nb\n### Key Decision\nc\n"
                                          u"### tried solution\nd\n### Next step\ne\n## Summary\nf"_s
                                       << QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s} << u"f"_s << true;
    QTest::newRow("any-order") << u"### Next Steps\nlast\n### User Intent\nfirst"_s
                               << QStringList{u"first"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"last"_s} << QString() << true;
    QTest::newRow("unknown-header-body-ignored")
        << u"### User Intent\nintent\n### Risks\nshould not appear\n### Next Steps\nnext"_s
        << QStringList{u"intent"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"next"_s} << QString() << true;
    QTest::newRow("unknown-headers-only") << u"### Risks\nr\n### Notes\nn"_s << allNA << QString() << false;
    QTest::newRow("empty-section-is-NA") << u"### User Intent\n\n   \n### Key Decisions\nchose X\n## Summary\n"_s
                                         << QStringList{u"N/A"_s, u"N/A"_s, u"chose X"_s, u"N/A"_s, u"N/A"_s}
                                         << QString() << true;
    QTest::newRow("body-trimmed-multiline") << u"### Execution Progress\n\n  - one\n  - two  \n\n### Next Steps\n- x"_s
                                            << QStringList{u"N/A"_s, u"- one\n  - two"_s, u"N/A"_s, u"N/A"_s, u"- x"_s}
                                            << QString() << true;
    QTest::newRow("crlf") << u"## Anchors\r\n### User Intent\r\nfix it\r\n## Summary\r\nok\r\n"_s
                          << QStringList{u"fix it"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s} << u"ok"_s << true;
    QTest::newRow("level-4-is-body") << u"### User Intent\nintent\n#### detail\nmore"_s
                                     << QStringList{u"intent\n#### detail\nmore"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s}
                                     << QString() << true;
    QTest::newRow("hash-without-space-is-body") << u"### User Intent\n###not a header"_s
                                                << QStringList{u"###not a header"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s}
                                                << QString() << true;
    QTest::newRow("headings-after-summary-are-summary")
        << u"### User Intent\ni\n## Summary\ns\n### Next Steps\nnot an anchor"_s
        << QStringList{u"i"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s} << u"s\n### Next Steps\nnot an anchor"_s << true;
    QTest::newRow("other-level-2-section-ignored") << u"### User Intent\ni\n## Notes\nnoise\n## Summary\ns"_s
                                                   << QStringList{u"i"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s}
                                                   << u"s"_s << true;
    QTest::newRow("decorated-header") << u"### **Tried Solutions**:\nretry"_s
                                      << QStringList{u"N/A"_s, u"N/A"_s, u"N/A"_s, u"retry"_s, u"N/A"_s} << QString() << true;
    QTest::newRow("cjk") << u"### User Intent\n修复上下文压缩\n## Summary\n总结：完成"_s
                         << QStringList{u"修复上下文压缩"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s} << u"总结：完成"_s << true;
}

void TestAnchors::parse()
{
    QFETCH(QString, text);
    QFETCH(QStringList, anchors);
    QFETCH(QString, summary);
    QFETCH(bool, structured);
    const ParsedSummary parsed = parseAnchorsAndSummary(text);
    QCOMPARE(anchorValues(parsed.anchors), anchors);
    QCOMPARE(parsed.summary, summary);
    QCOMPARE(parsed.structured, structured);
}

void TestAnchors::unknownValues_data()
{
    QTest::addColumn<QString>("value");
    QTest::addColumn<bool>("unknown");
    // Reference scenario 15: every spelling.
    QTest::newRow("N/A") << u"N/A"_s << true;
    QTest::newRow("- N/A") << u"- N/A"_s << true;
    QTest::newRow("n/a") << u"n/a"_s << true;
    QTest::newRow("NA") << u"NA"_s << true;
    QTest::newRow("na") << u"na"_s << true;
    QTest::newRow("None") << u"None"_s << true;
    QTest::newRow("none.") << u"none."_s << true;
    QTest::newRow("* none") << u"* none"_s << true;
    QTest::newRow("bullet Unknown.") << u"• Unknown."_s << true;
    QTest::newRow("UNKNOWN") << u"UNKNOWN"_s << true;
    QTest::newRow("dash") << u"-"_s << true;
    QTest::newRow("empty") << QString() << true;
    QTest::newRow("whitespace") << u" \t\n  "_s << true;
    QTest::newRow("padded") << u"   - N/A   "_s << true;
    QTest::newRow("bold") << u"**N/A**"_s << true;
    QTest::newRow("parenthesised") << u"(none)"_s << true;
    QTest::newRow("several-unknown-lines") << u"- N/A\n- none\n"_s << true;
    QTest::newRow("real") << u"Build a REST API"_s << false;
    QTest::newRow("real-list") << u"- Use chi"_s << false;
    QTest::newRow("none-in-sentence") << u"None of the tests pass"_s << false;
    QTest::newRow("na-prefix") << u"NAT traversal"_s << false;
    QTest::newRow("unknown-then-real") << u"- N/A\n- fixed the build"_s << false;
    QTest::newRow("negative-number") << u"-1"_s << false;
    QTest::newRow("cjk") << u"无"_s << false;
    // Punctuation and symbols are stripped whether ASCII or not; control characters are not.
    QTest::newRow("guillemets") << u"«N/A»"_s << true;
    QTest::newRow("em-dashes") << u"—none—"_s << true;
    QTest::newRow("arrows") << u"→ unknown ←"_s << true;
    QTest::newRow("ascii-symbols") << u"$`none`^|~+<=>"_s << true;
    QTest::newRow("delete-char") << u"\x7Fnone"_s << false;
    QTest::newRow("unit-separator") << u"none\x1F"_s << false;
    QTest::newRow("markers-and-rules") << u"  * - • --- n/a --- "_s << true;
    QTest::newRow("bullet-only") << u"•"_s << true;
    QTest::newRow("marker-then-word") << u"- -none-"_s << true;
    QTest::newRow("marker-then-real") << u"* - use none of them"_s << false;
    // Issue #31: an unknown with a qualifier that only says why is still unknown...
    QTest::newRow("na-parenthesised-reason") << u"N/A (no new decisions)"_s << true;
    QTest::newRow("na-bracket-reason") << u"- N/A [nothing tried yet]"_s << true;
    QTest::newRow("none-dash-reason") << u"None - nothing was decided in this span"_s << true;
    QTest::newRow("none-colon-reason") << u"none: the user did not say"_s << true;
    QTest::newRow("unknown-comma-reason") << u"Unknown, not discussed"_s << true;
    QTest::newRow("none-yet") << u"None yet."_s << true;
    QTest::newRow("none-so-far") << u"* none so far"_s << true;
    QTest::newRow("none-identified") << u"None identified"_s << true;
    QTest::newRow("not-applicable") << u"Not applicable (read-only task)"_s << true;
    QTest::newRow("no-new-decisions") << u"No new decisions."_s << true;
    QTest::newRow("no-decisions-yet") << u"- no decisions yet"_s << true;
    QTest::newRow("no-further-steps") << u"No further steps identified"_s << true;
    QTest::newRow("nothing-new") << u"Nothing new"_s << true;
    QTest::newRow("qualified-lines") << u"- N/A (none)\n- none yet"_s << true;
    // ...but a sentence that starts with one of those words says something.
    QTest::newRow("no-new-dependencies") << u"No new dependencies: use the standard library"_s << false;
    QTest::newRow("unknown-error") << u"Unknown error in the build, fixed by a clean rebuild"_s << false;
    QTest::newRow("nothing-to-do") << u"Nothing to do but run the tests"_s << false;
    QTest::newRow("none-of-them") << u"None of the retries helped"_s << false;
    QTest::newRow("na-then-real-line") << u"N/A (none)\n- switched to chi"_s << false;
}

void TestAnchors::unknownValues()
{
    QFETCH(QString, value);
    QFETCH(bool, unknown);
    QCOMPARE(isUnknownAnchorValue(value), unknown);
}

void TestAnchors::merge_data()
{
    QTest::addColumn<QString>("oldValue");
    QTest::addColumn<QString>("newValue");
    QTest::addColumn<QString>("merged");
    QTest::addColumn<AnchorChange>("change");
    // Reference scenario 15: old values survive every unknown spelling.
    for (const QString &unknown : {u"N/A"_s, u"- N/A"_s, u"n/a"_s, u"None"_s, QString(), u"* none"_s, u"• Unknown."_s, u"-"_s,
                                   u"N/A (no new decisions)"_s, u"None yet"_s, u"No new decisions"_s})
        QTest::addRow("kept '%s'", qPrintable(unknown)) << u"chi router"_s << unknown << u"chi router"_s << AnchorChange::Kept;
    QTest::newRow("replaced") << u"chi router"_s << u"gorilla mux"_s << u"gorilla mux"_s << AnchorChange::Updated;
    QTest::newRow("new") << u"N/A"_s << u"first value"_s << u"first value"_s << AnchorChange::New;
    QTest::newRow("new-over-dash-NA") << u"- N/A"_s << u"first value"_s << u"first value"_s << AnchorChange::New;
    QTest::newRow("unchanged") << u"same"_s << u"same"_s << u"same"_s << AnchorChange::Unchanged;
    QTest::newRow("unchanged-modulo-padding") << u"same"_s << u"same\n"_s << u"same\n"_s << AnchorChange::Unchanged;
    QTest::newRow("both-unknown") << u"N/A"_s << u"none"_s << u"N/A"_s << AnchorChange::Kept;
}

void TestAnchors::merge()
{
    QFETCH(QString, oldValue);
    QFETCH(QString, newValue);
    QFETCH(QString, merged);
    QFETCH(AnchorChange, change);
    // Put the case in every slot: each anchor merges on its own.
    for (AnchorKind kind : kAllAnchorKinds) {
        Anchors before;
        Anchors incoming;
        for (AnchorKind other : kAllAnchorKinds) {
            before.setValue(other, u"old "_s + anchorKey(other));
            incoming.setValue(other, u"N/A"_s);
        }
        before.setValue(kind, oldValue);
        incoming.setValue(kind, newValue);
        const AnchorMerge result = mergeAnchors(before, incoming);
        QCOMPARE(result.anchors.value(kind), merged);
        QCOMPARE(result.changes[size_t(kind)], change);
        for (AnchorKind other : kAllAnchorKinds) {
            if (other == kind)
                continue;
            QCOMPARE(result.anchors.value(other), u"old "_s + anchorKey(other));
            QCOMPARE(result.changes[size_t(other)], AnchorChange::Kept);
        }
    }
}

void TestAnchors::followUpNeverReplacesIntent_data()
{
    QTest::addColumn<QString>("oldIntent");
    QTest::addColumn<QString>("newIntent");
    QTest::addColumn<QString>("merged");
    QTest::addColumn<AnchorChange>("change");
    const QString goal = u"Build a REST API in Go with chi"_s;
    for (const QString &nudge : {u"continue"_s, u"Continue."_s, u"- go ahead"_s, u"ok"_s, u"please continue"_s, u"  proceed!  "_s})
        QTest::addRow("kept over '%s'", qPrintable(nudge.trimmed())) << goal << nudge << goal << AnchorChange::Kept;
    // A follow-up that says something is a real update; a nudge over nothing is better than N/A.
    QTest::newRow("continue with the auth part") << goal << u"continue with the auth part"_s
                                                 << u"continue with the auth part"_s << AnchorChange::Updated;
    QTest::newRow("nudge over N/A") << u"N/A"_s << u"continue"_s << u"continue"_s << AnchorChange::New;
}

void TestAnchors::followUpNeverReplacesIntent()
{
    QFETCH(QString, oldIntent);
    QFETCH(QString, newIntent);
    QFETCH(QString, merged);
    QFETCH(AnchorChange, change);
    Anchors before;
    before.setValue(AnchorKind::UserIntent, oldIntent);
    before.setValue(AnchorKind::NextStep, u"- add auth"_s);
    Anchors incoming;
    incoming.setValue(AnchorKind::UserIntent, newIntent);
    incoming.setValue(AnchorKind::NextStep, u"continue"_s); // only the intent is guarded: a next step may be "continue"
    const AnchorMerge result = mergeAnchors(before, incoming);
    QCOMPARE(result.anchors.value(AnchorKind::UserIntent), merged);
    QCOMPARE(result.changes[size_t(AnchorKind::UserIntent)], change);
    QCOMPARE(result.anchors.value(AnchorKind::NextStep), u"continue"_s);
    QCOMPARE(result.changes[size_t(AnchorKind::NextStep)], AnchorChange::Updated);
}

void TestAnchors::formatParsesBack_data()
{
    QTest::addColumn<QStringList>("values");
    QTest::newRow("all-NA") << allNA;
    QTest::newRow("filled") << QStringList{u"Build it"_s, u"- a.cpp\n- b.cpp"_s, u"use Qt"_s, u"make failed"_s, u"1. test"_s};
    QTest::newRow("cjk") << QStringList{u"修复"_s, u"N/A"_s, u"使用 Qt"_s, u"N/A"_s, u"下一步"_s};
}

void TestAnchors::formatParsesBack()
{
    QFETCH(QStringList, values);
    const Anchors anchors = anchorsOf(values);
    const QString text = formatAnchors(anchors);
    QVERIFY(text.startsWith(u"## Anchors\n### User Intent\n"_s));
    const ParsedSummary parsed = parseAnchorsAndSummary(text + u"## Summary\nsum"_s);
    QCOMPARE(anchorValues(parsed.anchors), values);
    QCOMPARE(parsed.summary, u"sum"_s);
}

void TestAnchors::headingLikeValueEscaped()
{
    Anchors anchors;
    anchors.setValue(AnchorKind::UserIntent, u"Write the README:\n## Summary\n### Next Steps"_s);
    const ParsedSummary parsed = parseAnchorsAndSummary(formatAnchors(anchors) + u"## Summary\nreal summary"_s);
    // The value stays in its anchor instead of ending the anchor block early.
    QCOMPARE(parsed.anchors.value(AnchorKind::UserIntent), u"Write the README:\n\\## Summary\n\\### Next Steps"_s);
    QCOMPARE(parsed.anchors.value(AnchorKind::NextStep), u"N/A"_s);
    QCOMPARE(parsed.summary, u"real summary"_s);
}

void TestAnchors::jsonRoundTrip()
{
    const Anchors anchors = anchorsOf({u"intent \"quoted\""_s, u"line1\nline2"_s, u"N/A"_s, u"修复"_s, QString()});
    const QJsonObject object = anchors.toJson();
    QCOMPARE(object.size(), kAnchorCount);
    QCOMPARE(object.value(u"user_intent"_s).toString(), u"intent \"quoted\""_s);
    QCOMPARE(object.value(u"next_step"_s).toString(), QString());
    const QByteArray text = QJsonDocument(object).toJson(QJsonDocument::Compact);
    QCOMPARE(Anchors::fromJson(QJsonDocument::fromJson(text).object()), anchors);
}

void TestAnchors::jsonMissingKeysAreNA()
{
    const QJsonObject object{{u"key_decision"_s, u"use chi"_s}, {u"next_step"_s, 42}, {u"extra"_s, u"ignored"_s}};
    const Anchors anchors = Anchors::fromJson(object);
    QCOMPARE(anchorValues(anchors), (QStringList{u"N/A"_s, u"N/A"_s, u"use chi"_s, u"N/A"_s, u"N/A"_s}));
}

void TestAnchors::checkpointTextExact()
{
    const Anchors anchors = anchorsOf({u"Build a REST API"_s, u"- main.go"_s, u"chi"_s, u"N/A"_s, u"- tests"_s});
    OffloadEntry entry;
    entry.relativePath = u".waterline/tool_results/s1/call_1.txt"_s;
    entry.lines = 1000;
    entry.bytes = 48890;
    const QString text = checkpointMessageText(anchors, u"  Go 1.25 service.  "_s, {entry});
    const QString expected = u"[Context Compaction]\n"
                             "## Anchors\n"
                             "### User Intent\nBuild a REST API\n"
                             "### Execution Progress\n- main.go\n"
                             "### Key Decisions\nchi\n"
                             "### Tried Solutions\nN/A\n"
                             "### Next Steps\n- tests\n"
                             "\n## Summary\nGo 1.25 service.\n"
                             "\n## Offloaded References\n"
                             "- .waterline/tool_results/s1/call_1.txt (1000 lines, 48890 bytes)\n"_s;
    QCOMPARE(text, expected);
    // Without offloads there is no references block at all.
    QVERIFY(!checkpointMessageText(anchors, u"x"_s, {}).contains(u"Offloaded"_s));
}

// The what-if replay sizes checkpoints without making their text: the size must be the text's.
void TestAnchors::checkpointBytesWithoutText()
{
    // Pieces that stress the count: headings to escape, CJK, surrogate pairs (whole and lone),
    // empty lines, a trailing newline, whitespace the summary trims.
    static const QStringList pieces{u"plain"_s, u"## looks like a heading"_s, u"  ### indented"_s, u"\n"_s, u"\n\n"_s,
                                    u"上下文压缩"_s, u"\U0001F600 emoji"_s, QString(QChar(0xD83D)), QString(QChar(0xDE00)),
                                    u"  "_s, u"\t"_s, u"é"_s, u"- item"_s, u"N/A"_s, QString()};
    QRandomGenerator random(20261130);
    auto text = [&](int maxPieces) {
        QString out;
        const int n = random.bounded(maxPieces + 1);
        for (int i = 0; i < n; ++i)
            out += pieces.at(random.bounded(int(pieces.size())));
        return out;
    };
    for (int round = 0; round < 2000; ++round) {
        Anchors anchors;
        for (AnchorKind kind : kAllAnchorKinds)
            anchors.setValue(kind, text(6));
        const QString summary = text(8);
        QList<OffloadEntry> offloaded;
        qint64 referenceBytes = 0;
        const int files = random.bounded(4) == 0 ? 0 : random.bounded(1, 45);
        for (int f = 0; f < files; ++f) {
            OffloadEntry entry;
            entry.relativePath = u".waterline/tool_results/s/"_s + text(2) + QString::number(f) + u".txt"_s;
            entry.lines = random.bounded(2) ? random.bounded(100000) : 0;
            entry.bytes = qint64(random.bounded(1 << 30)) * random.bounded(3);
            referenceBytes += offloadReferenceBytes(entry);
            offloaded << entry;
        }
        // Counted as views count a message (a lone surrogate as the 3 bytes of U+FFFD).
        const QString made = checkpointMessageText(anchors, summary, offloaded);
        const qint64 expected = utf8ByteCount(made);
        QCOMPARE(formattedAnchorsBytes(anchors), utf8ByteCount(formatAnchors(anchors)));
        if (checkpointMessageBytes(anchors, summary, offloaded.size(), referenceBytes) != expected)
            QFAIL(qPrintable(u"round %1: %2 bytes counted, the text has %3"_s.arg(round)
                                 .arg(checkpointMessageBytes(anchors, summary, offloaded.size(), referenceBytes)).arg(expected)));
    }
}

void TestAnchors::checkpointRoundTrip_data()
{
    QTest::addColumn<QStringList>("values");
    QTest::addColumn<QString>("summary");
    QTest::addColumn<int>("offloads");
    QTest::newRow("plain") << QStringList{u"a"_s, u"b"_s, u"c"_s, u"d"_s, u"e"_s} << u"summary text"_s << 0;
    QTest::newRow("with-offloads") << QStringList{u"a"_s, u"N/A"_s, u"c"_s, u"N/A"_s, u"e"_s} << u"line 1\n\nline 2"_s << 2;
    QTest::newRow("empty-summary-with-offloads") << allNA << QString() << 1;
    QTest::newRow("summary-mentions-heading")
        << allNA << u"About ## Offloaded References: see below\n## Offloaded References\nnot an entry line"_s << 0;
    QTest::newRow("cjk") << QStringList{u"上下文"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s, u"N/A"_s} << u"总结"_s << 1;
}

void TestAnchors::checkpointRoundTrip()
{
    QFETCH(QStringList, values);
    QFETCH(QString, summary);
    QFETCH(int, offloads);
    QList<OffloadEntry> entries;
    for (int i = 0; i < offloads; ++i) {
        OffloadEntry entry;
        entry.relativePath = u".waterline/tool_results/s/c%1.txt"_s.arg(i);
        entry.lines = 10 + i;
        entry.bytes = 1000 + i;
        entries << entry;
    }
    const QString text = checkpointMessageText(anchorsOf(values), summary, entries);
    QVERIFY(isCheckpointText(text));
    QString references;
    const ParsedSummary parsed = parseCheckpointText(text, &references);
    QVERIFY(parsed.structured);
    QCOMPARE(anchorValues(parsed.anchors), values);
    QCOMPARE(parsed.summary, summary);
    QCOMPARE(references.isEmpty(), offloads == 0);
    for (const OffloadEntry &entry : std::as_const(entries))
        QVERIFY(references.contains(u"- %1 (%2 lines, %3 bytes)"_s.arg(entry.relativePath).arg(entry.lines).arg(entry.bytes)));
}

void TestAnchors::checkpointDetection_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<bool>("checkpoint");
    QTest::newRow("marker") << u"[Context Compaction]\n## Anchors"_s << true;
    QTest::newRow("leading-space") << u"\n  [Context Compaction]\n"_s << true;
    QTest::newRow("user-text") << u"please compact"_s << false;
    QTest::newRow("marker-later") << u"see [Context Compaction]"_s << false;
    QTest::newRow("lowercase") << u"[context compaction]"_s << false;
    QTest::newRow("empty") << QString() << false;
}

void TestAnchors::checkpointDetection()
{
    QFETCH(QString, text);
    QFETCH(bool, checkpoint);
    QCOMPARE(isCheckpointText(text), checkpoint);
}

QTEST_GUILESS_MAIN(TestAnchors)
#include "tst_anchors.moc"
