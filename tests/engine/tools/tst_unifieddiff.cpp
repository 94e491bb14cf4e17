#include "tools/UnifiedDiff.h"

#include <QRandomGenerator>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// Applies a unified diff to `oldText` (hunks in order, context checked); returns the new
// text, or "APPLY FAILED" with the reason. Independent of how the diff was computed.
QString applyDiff(const QString &oldText, const QString &diff)
{
    QStringList oldLines;
    for (qsizetype start = 0; start < oldText.size();) {
        const qsizetype newline = oldText.indexOf(u'\n', start);
        const qsizetype end = newline < 0 ? oldText.size() : newline + 1;
        oldLines << oldText.mid(start, end - start);
        start = end;
    }
    QStringList diffLines = diff.split(u'\n');
    if (diffLines.size() < 2 || !diffLines[0].startsWith(u"--- "_s) || !diffLines[1].startsWith(u"+++ "_s))
        return u"APPLY FAILED: header"_s;
    QString out;
    qsizetype oldIndex = 0;
    qsizetype i = 2;
    while (i < diffLines.size()) {
        const QString line = diffLines[i];
        if (line.isEmpty() && i == diffLines.size() - 1)
            break;
        if (line.startsWith(u"@@ -"_s)) {
            const qsizetype start = line.mid(4, line.indexOf(u' ', 4) - 4).section(u',', 0, 0).toLongLong();
            const qsizetype target = line.section(u' ', 1, 1).contains(u",0"_s) ? start : start - 1;
            while (oldIndex < target)
                out += oldLines[oldIndex++];
            ++i;
            continue;
        }
        if (line == u"\\ No newline at end of file"_s) {
            if (out.endsWith(u'\n'))
                out.chop(1);
            ++i;
            continue;
        }
        const QChar marker = line.isEmpty() ? QChar() : line[0];
        const QString text = line.mid(1) + u'\n';
        if (marker == u' ' || marker == u'-') {
            if (oldIndex >= oldLines.size() || QString(oldLines[oldIndex]).remove(u'\n') != text.chopped(1))
                return u"APPLY FAILED: context at old line %1"_s.arg(oldIndex + 1);
            if (marker == u' ')
                out += text;
            ++oldIndex;
        } else if (marker == u'+') {
            out += text;
        } else {
            return u"APPLY FAILED: line '%1'"_s.arg(line);
        }
        ++i;
    }
    while (oldIndex < oldLines.size())
        out += oldLines[oldIndex++];
    return out;
}

QString numbered(int from, int to)
{
    QString text;
    for (int i = from; i <= to; ++i)
        text += QString::number(i) + u'\n';
    return text;
}

} // namespace

class TestUnifiedDiff : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void exactOutput_data();
    void exactOutput();
    void equalTextsGiveNothing();
    void appliesBack_data();
    void appliesBack();
    void largeRewriteFallsBackToOneHunk();
    void cutAtMaxBytes();
};

void TestUnifiedDiff::exactOutput_data()
{
    QTest::addColumn<QString>("oldText");
    QTest::addColumn<QString>("newText");
    QTest::addColumn<QString>("expected");
    QTest::newRow("one line changed") << u"a\nb\nc\n"_s << u"a\nB\nc\n"_s << u"--- a\n+++ b\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"_s;
    QTest::newRow("new file") << QString() << u"x\ny\n"_s << u"--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n"_s;
    QTest::newRow("emptied file") << u"x\n"_s << QString() << u"--- a\n+++ b\n@@ -1 +0,0 @@\n-x\n"_s;
    QTest::newRow("no newline at end") << u"a\nb"_s << u"a\nc"_s
                                       << u"--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"_s;
    QTest::newRow("crlf to lf shows") << u"a\r\n"_s << u"a\n"_s << u"--- a\n+++ b\n@@ -1 +1 @@\n-a\r\n+a\n"_s;
    QTest::newRow("two hunks far apart")
        << numbered(1, 20) << QString(numbered(1, 20)).replace(u"\n2\n"_s, u"\ntwo\n"_s).replace(u"\n19\n"_s, u"\nnineteen\n"_s)
        << u"--- a\n+++ b\n@@ -1,5 +1,5 @@\n 1\n-2\n+two\n 3\n 4\n 5\n@@ -16,5 +16,5 @@\n 16\n 17\n 18\n-19\n+nineteen\n 20\n"_s;
    QTest::newRow("close changes merge")
        << numbered(1, 10) << QString(numbered(1, 10)).replace(u"\n3\n"_s, u"\nthree\n"_s).replace(u"\n8\n"_s, u"\neight\n"_s)
        << u"--- a\n+++ b\n@@ -1,10 +1,10 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n 7\n-8\n+eight\n 9\n 10\n"_s;
    QTest::newRow("insertion in the middle") << numbered(1, 9) << QString(numbered(1, 9)).replace(u"\n5\n"_s, u"\n5\nnew\n"_s)
                                             << u"--- a\n+++ b\n@@ -3,6 +3,7 @@\n 3\n 4\n 5\n+new\n 6\n 7\n 8\n"_s;
}

void TestUnifiedDiff::exactOutput()
{
    QFETCH(QString, oldText);
    QFETCH(QString, newText);
    QFETCH(QString, expected);
    QCOMPARE(UnifiedDiff::diff(oldText, newText, u"a"_s, u"b"_s), expected);
}

void TestUnifiedDiff::equalTextsGiveNothing()
{
    QVERIFY(UnifiedDiff::diff(u"same\n"_s, u"same\n"_s, u"a"_s, u"b"_s).isEmpty());
}

void TestUnifiedDiff::appliesBack_data()
{
    QTest::addColumn<QString>("oldText");
    QTest::addColumn<QString>("newText");
    // Pseudo-random edits of a 200-line text, with a fixed seed per row.
    for (quint32 seed = 1; seed <= 25; ++seed) {
        QRandomGenerator random(seed);
        QStringList lines;
        for (int i = 0; i < 200; ++i)
            lines << u"line %1"_s.arg(random.bounded(40));  // repeats make the alignment ambiguous
        QStringList edited = lines;
        const int edits = random.bounded(1, 30);
        for (int e = 0; e < edits; ++e) {
            const int at = random.bounded(edited.size());
            switch (random.bounded(3)) {
            case 0:
                edited.removeAt(at);
                break;
            case 1:
                edited.insert(at, u"inserted %1"_s.arg(e));
                break;
            default:
                edited[at] = u"changed %1"_s.arg(e);
                break;
            }
        }
        QTest::addRow("seed %u", seed) << lines.join(u'\n') + u'\n' << edited.join(u'\n') + u'\n';
    }
}

void TestUnifiedDiff::appliesBack()
{
    QFETCH(QString, oldText);
    QFETCH(QString, newText);
    const QString diff = UnifiedDiff::diff(oldText, newText, u"a"_s, u"b"_s);
    QCOMPARE(applyDiff(oldText, diff), newText);
}

void TestUnifiedDiff::largeRewriteFallsBackToOneHunk()
{
    QString oldText;
    QString newText;
    for (int i = 0; i < 3000; ++i) {
        oldText += u"old %1\n"_s.arg(i);
        newText += u"new %1\n"_s.arg(i);
    }
    UnifiedDiff::Options options;
    options.maxEditDistance = 100;
    options.maxBytes = 10 * 1024 * 1024;
    const QString diff = UnifiedDiff::diff(oldText, newText, u"a"_s, u"b"_s, options);
    QVERIFY(diff.startsWith(u"--- a\n+++ b\n@@ -1,3000 +1,3000 @@\n-old 0\n"_s));
    QCOMPARE(diff.count(u"\n@@ "_s), 1);
    QCOMPARE(applyDiff(oldText, diff), newText);
}

void TestUnifiedDiff::cutAtMaxBytes()
{
    UnifiedDiff::Options options;
    options.maxBytes = 100;
    const QString diff = UnifiedDiff::diff(QString(), numbered(1, 1000), u"a"_s, u"b"_s, options);
    QVERIFY(diff.size() < 200);
    QVERIFY(diff.endsWith(u"[diff cut at 100 characters]\n"_s));
}

QTEST_GUILESS_MAIN(TestUnifiedDiff)
#include "tst_unifieddiff.moc"
