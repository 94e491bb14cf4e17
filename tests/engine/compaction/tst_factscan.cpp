// The hand-written scans in front of the summariser's regular expressions must never hide a match:
// seeded random texts built from the keywords, their near misses, case variants, CJK, surrogate
// pairs (whole and broken), Unicode case-folding traps and cuts at 4 KB are checked against the
// plain expressions, several thousand per property.
#include "compaction/FactScan.h"

#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// Characters that trip naive scans: a surrogate pair, its halves alone, a combining mark, letters
// PCRE matches caselessly with ASCII ones (long s, Kelvin sign) or that look like them (dotted and
// dotless i), a non-ASCII digit, CJK.
const QStringList kTraps{
    u"\U0001F600"_s, QString(QChar(0xD83D)), QString(QChar(0xDE00)), u"\u0301"_s, u"\u017F"_s, u"\u212A"_s,
    u"\u0130"_s,     u"\u0131"_s,            u"\u0663"_s,            u"上下文"_s,   u"\u00A0"_s, u"\u2019"_s,
};

const QStringList kFiller{u"ok"_s, u"x"_s,     u"xxxxxxxxxxxxxxxxxxxxxxx"_s, u"the"_s, u"test output"_s, u"src/main.cpp:12:"_s,
                          u"42"_s, u"0"_s,     u"9"_s,  u"make -j2"_s, u"Caught"_s, u"ERR"_s, u"re"_s, u"co"_s, u"No"_s,
                          u"Se"_s, u"\"e"_s,   u"pa"_s, u"fa"_s,       u"FA"_s,     u"Tr"_s,  u"ex"_s};

const QStringList kSeparators{u" "_s, u""_s, u"\n"_s, u"\t"_s, u":"_s, u"="_s, u"_"_s, u"["_s, u"]"_s, u"("_s,
                              u")"_s, u"\""_s, u"  "_s, u"\r\n"_s, u": "_s, u"*"_s, u"-"_s};

const QStringList kFailureWords{
    u"Traceback (most recent call last)"_s, u"Traceback (most recent call"_s, u"Error:"_s, u"Error"_s, u"Error 1"_s,
    u"Error x"_s, u"Error \u0663"_s, u"error:"_s, u"error[E0308]:"_s, u"error[E0308]"_s, u"error["_s, u"error"_s,
    u"errors"_s, u"ERROR"_s, u"ERRORS"_s, u"ERROR_"_s, u"ERROR!"_s, u"FAILED"_s, u"FAILEDX"_s, u"FAILED!"_s,
    u"fatal:"_s, u"fatal"_s, u"panic:"_s, u"panic"_s, u"3 failed"_s, u"0 failed"_s, u"10 errors"_s, u"1 error"_s,
    u"12 errorsx"_s, u"007 failed"_s, u"1 fail"_s, u"1\u0663 failed"_s, u"2 failed_"_s, u"exit code 0"_s,
    u"exit code 1"_s, u"Exit Code: 2"_s, u"EXIT STATUS=3"_s, u"exited with code 1"_s, u"Exited With Status 0"_s,
    u"exit  code 1"_s, u"exit code:= 5"_s, u"exit \u017Ftatus 1"_s, u"exit code \u0663"_s, u"ex\u0130t code 1"_s,
    u"ex\u0131t code 1"_s, u"e\u212Ait code 1"_s, u"\"exit_code\": 1"_s, u"\"exit_code\" : 0"_s,
    u"\"exit_code\":\n 2"_s, u"\"exit_code\""_s, u"returned non-zero exit status"_s, u"returned non-zero"_s,
    u"command not found"_s, u"command not"_s, u"No such file or directory"_s, u"No such file"_s,
    u"Segmentation fault"_s, u"Segmentation"_s,
};

const QStringList kChoiceWords{
    u"I'll use"_s, u"I’ll use"_s, u"i'LL USE"_s, u"I will use"_s, u"we'll use"_s, u"We will use"_s, u"let's use"_s,
    u"Let’s use"_s, u"let's u\u017Fe"_s, u"I'll u\u017Fe"_s, u"I'll go with"_s, u"I'll go"_s, u"decided"_s,
    u"decide to"_s, u"undecided"_s, u"Instead of"_s, u"in\u017Ftead of"_s, u"insteadof"_s, u"instead  of"_s,
    u"going with"_s, u"chose"_s, u"cho\u017Fe"_s, u"echo"_s, u"chosen"_s, u"_chose"_s, u"2chose"_s, u"opted"_s,
    u"adopted"_s, u"OPTED"_s, u"决定"_s, u"改用"_s, u"选择了"_s, u"选择"_s, u"I'll"_s, u"use"_s, u"ll u"_s, u"let"_s,
    u"I ll use"_s, u"decid"_s, u"\u2019ll use"_s,
    u"let's go with"_s, u"rather than"_s, u"rather"_s, u"switch to"_s, u"switching to"_s, u"\u017Fwitch to"_s, u"switch"_s,
    u"we should"_s, u"we \u017Fhould"_s, u"should"_s, u"I need to use"_s, u"we need to add"_s, u"need to"_s, u"I'll add"_s,
    u"I'll te\u017Ft"_s, u"I’ll \u212Aeep"_s, u"I'll check"_s, u"will"_s, u"采用"_s, u"采"_s,
};

const QStringList kPlanWords{
    u"Plan:"_s,   u"**Next steps:**"_s, u"Next step:"_s, u"remaining:"_s, u"todo:"_s, u"To do:"_s, u"TODO"_s, u"next"_s,
    u"then"_s,    u"Then we"_s, u"- [ ] item"_s, u"* [ ] item"_s, u"- [x] item"_s, u"1. first"_s, u"12) x"_s,
    u"3.x"_s,     u"\u0663. arabic"_s, u"next steps"_s, u"next \u017Fteps"_s, u"NEXT STEP"_s, u"nextstep"_s,
    u"Plan**:"_s, u"plan: a:"_s, u":**"_s, u":"_s, u"**"_s, u"Plans"_s, u"todos"_s, u"tod o"_s, u"next  step"_s,
    u"\u212Anext"_s, u"-"_s, u"[ ]"_s,
};

const QStringList kFieldWords{
    u"{"_s, u"}"_s, u"\"path\""_s, u"\"file_path\""_s, u"\"filePath\""_s, u"\"filename\""_s, u"\"file\""_s,
    u"\"target_file\""_s, u"\"notebook_path\""_s, u"\"command\""_s, u"\"cmd\""_s, u"\"Path\""_s, u"\"files\""_s,
    u"\"content\""_s, u"\\\"path\\\""_s, u"\"path"_s, u"path\""_s, u":"_s, u" : "_s, u":\n"_s, u"\v:\f"_s,
    u"\"src/a.cpp\""_s, u"\"make test\""_s, u"\"a\\\"b\""_s, u"\"a\\\\\""_s, u"\"a\\\nb\""_s, u"\"\""_s, u"\\"_s,
    u"\"\U0001F600\""_s, u"["_s, u"]"_s, u"\"bash\", \"-lc\", \"ls\""_s, u","_s, u"\"view\""_s,
    // whole fields, damaged like any word
    u"\"path\": \"src/a.cpp\""_s, u"\"command\" :\n\"make \\\"x\\\" test\""_s, u"\"cmd\":[\"bash\"]"_s,
    u"\"file\":\"a\\\\\""_s, u"\"file_path\":\t\"\U0001F600\u0301\""_s, u"\"filename\":\"a\\\nb\""_s,
    u"\"notebook_path\":\"\""_s, u"{\"command\":\"str_replace\",\"path\":\"/x/y\"}"_s, u"\"target_file\" : ["_s,
    u"\"filePath\":\"x\\\u00e9\""_s, u"\"path\":\"a\\\rb\""_s, u"\"path\":\"a\\\u2028b\""_s,
    u"\"path\":\"a\\\u0085b\""_s, u"\"path\":\"a\\\vb\""_s, u"\"path\":\"a\\\U0001F600b\""_s,
    u"\"cmd\"\u00A0:\"a\""_s, u"\"cmd\":\u0085\"a\""_s, u"\"cmd\"\r\n:\v\f\"a\""_s, u"\"cmd\":\t["_s,
};

const QStringList kPatchWords{
    u"*** Update File: src/a.cpp"_s, u"*** Add File: b"_s, u"*** Delete File: c"_s, u"*** Begin Patch"_s, u"**"_s,
    u"*** "_s, u"+++ b/src/x.cpp"_s, u"+++ a/x"_s, u"+++ b/"_s, u"++ b/x"_s, u"+++"_s, u"File: x"_s,
};

class TextMaker
{
public:
    TextMaker(quint32 seed, const QStringList &keywords)
        : m_random(seed)
        , m_keywords(keywords)
    {
    }

    // 0 to `maxTokens` tokens: keywords (half of them damaged), filler, traps, separators, and runs
    // of filler long enough for the block scans.
    QString text(int maxTokens)
    {
        QString out;
        const int tokens = int(m_random.bounded(maxTokens + 1));
        for (int t = 0; t < tokens; ++t) {
            const int kind = int(m_random.bounded(10));
            if (kind < 4)
                out += damaged(pick(m_keywords));
            else if (kind < 6)
                out += pick(kFiller);
            else if (kind < 7)
                out += pick(kTraps);
            else if (kind < 8)
                out += QString(qsizetype(m_random.bounded(40)), m_random.bounded(2) ? u'x' : u' ');
            out += pick(kSeparators);
        }
        return out;
    }

    quint32 bounded(quint32 n) { return m_random.bounded(n); }

private:
    const QString &pick(const QStringList &list) { return list.at(qsizetype(m_random.bounded(quint32(list.size())))); }

    // The word as it is, with one letter's case flipped, one character dropped, or cut short.
    QString damaged(QString word)
    {
        if (word.isEmpty())
            return word;
        const qsizetype at = qsizetype(m_random.bounded(quint32(word.size())));
        switch (m_random.bounded(6)) {
        case 0: {
            const QChar c = word.at(at);
            word[at] = c.isUpper() ? c.toLower() : c.toUpper();
            break;
        }
        case 1:
            word.remove(at, 1);
            break;
        case 2:
            word.truncate(at);
            break;
        default:
            break;
        }
        return word;
    }

    QRandomGenerator m_random;
    QStringList m_keywords;
};

QString shown(const QString &text)
{
    QString out;
    for (QChar c : text)
        out += c.unicode() >= 0x20 && c.unicode() < 0x7F ? QString(c) : u"\\u%1"_s.arg(uint(c.unicode()), 4, 16, QChar(u'0'));
    return out;
}

void addSeeds()
{
    QTest::addColumn<quint32>("seed");
    for (quint32 seed : {1u, 20260514u, 77u, 4242u})
        QTest::addRow("seed %u", seed) << seed;
}

constexpr int kCasesPerSeed = 3000;

} // namespace

class TestFactScan : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void failureAsPlainExpression_data() { addSeeds(); }

    // firstFailure() finds exactly the match the expression alone finds, in whole texts, in their
    // first 4,096 characters (a surrogate pair may be cut there) and in their last 1,024.
    void failureAsPlainExpression()
    {
        QFETCH(quint32, seed);
        TextMaker maker(seed, kFailureWords);
        const QRegularExpression &failure = FactScan::failureExpression();
        int matched = 0;
        int checked = 0;
        for (int c = 0; c < kCasesPerSeed; ++c) {
            QString text = maker.text(c % 10 == 0 ? 600 : 40);
            QList<QStringView> views{text};
            if (text.size() > 4096)
                views << QStringView(text).first(4096) << QStringView(text).last(1024);
            for (QStringView view : views) {
                const QRegularExpressionMatch expected = failure.matchView(view);
                const FactScan::Span actual = FactScan::firstFailure(view);
                ++checked;
                if (expected.hasMatch())
                    ++matched;
                if (actual.start != (expected.hasMatch() ? expected.capturedStart() : -1)
                    || (expected.hasMatch() && actual.end != expected.capturedEnd()))
                    QFAIL(qPrintable(u"%1..%2 instead of %3..%4 in \"%5\""_s.arg(actual.start).arg(actual.end)
                                         .arg(expected.capturedStart()).arg(expected.capturedEnd()).arg(shown(view.toString()))));
            }
        }
        // Both outcomes are well represented.
        QVERIFY2(matched > checked / 10 && matched < checked * 9 / 10, qPrintable(u"%1 of %2"_s.arg(matched).arg(checked)));
    }

    // No match of the expression starts before the candidate, and none at all when there is none.
    void failureCandidatesComeFirst_data() { addSeeds(); }
    void failureCandidatesComeFirst()
    {
        QFETCH(quint32, seed);
        TextMaker maker(seed, kFailureWords);
        const QRegularExpression &failure = FactScan::failureExpression();
        int rejected = 0;
        for (int c = 0; c < kCasesPerSeed; ++c) {
            const QString text = maker.text(40);
            qsizetype resume = 0;
            const qsizetype first = FactScan::nextFailureCandidate(text, 0, &resume);
            const QRegularExpressionMatch m = failure.match(text);
            if (first < 0)
                ++rejected;
            if (m.hasMatch() && (first < 0 || m.capturedStart() < first))
                QFAIL(qPrintable(u"candidate %1, match at %2 in \"%3\""_s.arg(first).arg(m.capturedStart()).arg(shown(text))));
            QVERIFY(first < 0 || resume > first);
        }
        QVERIFY2(rejected > kCasesPerSeed / 20, qPrintable(QString::number(rejected)));
    }

    // mayHoldChoice() is false only for texts the expression finds nothing in.
    void choiceScanHidesNoMatch_data() { addSeeds(); }
    void choiceScanHidesNoMatch()
    {
        QFETCH(quint32, seed);
        TextMaker maker(seed, kChoiceWords);
        const QRegularExpression &choice = FactScan::choiceExpression();
        int matched = 0;
        int rejected = 0;
        for (int c = 0; c < kCasesPerSeed; ++c) {
            const QString text = maker.text(c % 10 == 0 ? 200 : 12);
            const bool expected = choice.match(text).hasMatch();
            const bool maybe = FactScan::mayHoldChoice(text);
            matched += expected;
            rejected += !maybe;
            if (expected && !maybe)
                QFAIL(qPrintable(u"missed a choice in \"%1\""_s.arg(shown(text))));
        }
        QVERIFY2(matched > kCasesPerSeed / 10, qPrintable(QString::number(matched)));
        QVERIFY2(rejected > kCasesPerSeed / 10, qPrintable(QString::number(rejected)));
    }

    // mayBePlanHeader() and mayBeTodo() are false only for lines their expression cannot match:
    // lines as the summariser passes them (trimmed, no line break inside) and with a final break.
    void planScansHideNoMatch_data() { addSeeds(); }
    void planScansHideNoMatch()
    {
        QFETCH(quint32, seed);
        TextMaker maker(seed, kPlanWords);
        const QRegularExpression &header = FactScan::planHeaderExpression();
        const QRegularExpression &todo = FactScan::todoExpression();
        static const QStringList breaks{u"\n"_s, u"\r\n"_s, u"\r"_s, u"\u2028"_s};
        int headers = 0;
        int todos = 0;
        int rejected = 0;
        for (int c = 0; c < kCasesPerSeed; ++c) {
            QString line = maker.text(6).replace(u'\n', u' ').trimmed();
            if (maker.bounded(8) == 0)
                line += breaks.at(qsizetype(maker.bounded(quint32(breaks.size()))));
            const bool isHeader = header.match(line).hasMatch();
            const bool isTodo = todo.match(line).hasMatch();
            headers += isHeader;
            todos += isTodo;
            rejected += !FactScan::mayBePlanHeader(line) && !FactScan::mayBeTodo(line);
            if (isHeader && !FactScan::mayBePlanHeader(line))
                QFAIL(qPrintable(u"missed a plan header: \"%1\""_s.arg(shown(line))));
            if (isTodo && !FactScan::mayBeTodo(line))
                QFAIL(qPrintable(u"missed a plan item: \"%1\""_s.arg(shown(line))));
        }
        QVERIFY2(headers > kCasesPerSeed / 100 && todos > kCasesPerSeed / 10 && rejected > kCasesPerSeed / 10,
                 qPrintable(u"%1 headers, %2 items, %3 rejected"_s.arg(headers).arg(todos).arg(rejected)));
    }

    // forEachField() yields the matches of the global match, in order, with the same captures.
    void fieldsAsGlobalMatch_data() { addSeeds(); }
    void fieldsAsGlobalMatch()
    {
        QFETCH(quint32, seed);
        TextMaker maker(seed, kFieldWords);
        const QRegularExpression &field = FactScan::fieldExpression();
        auto describe = [](const QRegularExpressionMatch &m) {
            return u"%1..%2 %3 %4 [%5]"_s.arg(m.capturedStart()).arg(m.capturedEnd()).arg(m.captured(1))
                .arg(m.hasCaptured(2)).arg(m.captured(2));
        };
        int withFields = 0;
        for (int c = 0; c < kCasesPerSeed; ++c) {
            const QString text = maker.text(c % 10 == 0 ? 300 : 16);
            QStringList expected;
            for (const QRegularExpressionMatch &m : field.globalMatch(text))
                expected << describe(m);
            QStringList actual;
            FactScan::forEachField(text, [&](const FactScan::Field &f) {
                actual << u"%1..%2 %3 %4 [%5]"_s.arg(f.start).arg(f.end).arg(f.key).arg(f.isString).arg(f.value);
            });
            if (actual != expected)
                QFAIL(qPrintable(u"%1 instead of %2 in \"%3\""_s.arg(actual.join(u"; "_s), expected.join(u"; "_s), shown(text))));
            withFields += !expected.isEmpty();
        }
        QVERIFY2(withFields > kCasesPerSeed / 10 && withFields < kCasesPerSeed * 9 / 10, qPrintable(QString::number(withFields)));
    }

    // mayNamePatchedFile() is false only for texts the patch expression finds nothing in.
    void patchScanHidesNoMatch_data() { addSeeds(); }
    void patchScanHidesNoMatch()
    {
        QFETCH(quint32, seed);
        TextMaker maker(seed, kPatchWords);
        const QRegularExpression &patchFile = FactScan::patchFileExpression();
        int matched = 0;
        int rejected = 0;
        for (int c = 0; c < kCasesPerSeed; ++c) {
            const QString text = maker.text(8);
            const bool expected = patchFile.match(text).hasMatch();
            const bool maybe = FactScan::mayNamePatchedFile(text);
            matched += expected;
            rejected += !maybe;
            if (expected && !maybe)
                QFAIL(qPrintable(u"missed a patched file in \"%1\""_s.arg(shown(text))));
        }
        QVERIFY2(matched > kCasesPerSeed / 10 && rejected > kCasesPerSeed / 10, qPrintable(u"%1 matched, %2 rejected"_s.arg(matched).arg(rejected)));
    }

    // Hand-picked cases: the traps the random texts may reach only rarely.
    void failureCases_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("line"); // the match, empty for none
        QTest::newRow("error without colon") << u"no error here"_s << QString();
        QTest::newRow("exit code 0") << u"exit code 0"_s << QString();
        QTest::newRow("exit code 2 mixed case") << u"done. Exit Code: 2"_s << u"Exit Code: 2"_s;
        QTest::newRow("long s in status") << u"exited with \u017Ftatus 3"_s << u"exited with \u017Ftatus 3"_s;
        QTest::newRow("dotted capital i") << u"ex\u0130t code 1"_s << QString();
        QTest::newRow("digits then failed") << u"ran 0012 failed"_s << u"12 failed"_s;
        QTest::newRow("digits then word") << u"1234 failedx"_s << QString();
        QTest::newRow("after a lone surrogate") << QChar(0xD800) + u" FAILED"_s << QString();
        QTest::newRow("after a lone low surrogate, far in") << QString(20, u'x') + QChar(0xDC00) + u" FAILED"_s << QString();
        QTest::newRow("after a lone high surrogate, far in") << QString(17, u'x') + QChar(0xD800) + u"x FAILED"_s << QString();
        QTest::newRow("after a surrogate pair") << u"\U0001F600 FAILED"_s << u"FAILED"_s;
        QTest::newRow("at a block end") << QString(15, u'x') + u"fatal: x"_s << u"fatal:"_s;
        QTest::newRow("in the tail") << QString(40, u'x') + u"ERROR"_s << u"ERROR"_s;
        QTest::newRow("json exit code over lines") << u"{\"exit_code\" :\n 1}"_s << u"\"exit_code\" :\n 1"_s;
    }

    void failureCases()
    {
        QFETCH(QString, text);
        QFETCH(QString, line);
        const FactScan::Span span = FactScan::firstFailure(text);
        QCOMPARE(span.start < 0 ? QString() : text.sliced(span.start, span.end - span.start), line);
        const QRegularExpressionMatch m = FactScan::failureExpression().match(text);
        QCOMPARE(m.hasMatch() ? m.captured() : QString(), line); // the expression agrees
    }
};

QTEST_GUILESS_MAIN(TestFactScan)
#include "tst_factscan.moc"
