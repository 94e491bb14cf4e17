#include "compaction/CompactionPass.h"
#include "compaction/OffloadStore.h"
#include "compaction/TokenEstimate.h"
#include "model/Utf8.h"

#include <QDir>
#include <QFile>
#include <QCryptographicHash>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {
int modeOf(const QString &path)
{
    struct stat st {};
    if (::stat(QFile::encodeName(path).constData(), &st) != 0)
        return -1;
    return int(st.st_mode & 07777);
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray("<unreadable>");
    return file.readAll();
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

QString numberedLines(int count)
{
    QString text;
    for (int i = 1; i <= count; ++i)
        text += u"line %1\n"_s.arg(i);
    return text;
}

Message result(const QString &callId, const QString &content, qint64 id = 0)
{
    Message m = Message::toolResult(callId, content);
    m.id = id;
    return m;
}
// Seeded tool output: lines of ASCII only, or of ASCII, Latin-1, CJK, surrogate pairs, the odd lone
// surrogate, tab and '\r'; empty, short, just around the 500-character preview cut (a pair straddling it now and
// then) and far beyond it; some ending "\r\n"; with or without a final newline.
QString randomText(QRandomGenerator &rng)
{
    QString text;
    const int lines = int(rng.bounded(0, 40));
    for (int l = 0; l < lines; ++l) {
        qsizetype length = 0;
        switch (rng.bounded(8)) {
        case 0: length = 0; break;
        case 1: length = rng.bounded(490, 510); break;
        case 2: length = rng.bounded(510, 2000); break;
        default: length = rng.bounded(1, 100); break;
        }
        QString line;
        if (rng.bounded(10) == 0)
            line = QString(rng.bounded(495, 502), u'a'); // a pair right at the cut
        const bool asciiOnly = rng.bounded(3) == 0;
        while (line.size() < length) {
            const quint32 kind = asciiOnly ? 0 : rng.bounded(40);
            if (kind < 22) {
                line += QChar(char16_t(rng.bounded(0x20, 0x7F)));
            } else if (kind < 27) {
                line += QChar(char16_t(rng.bounded(0x4E00, 0xA000))); // CJK
            } else if (kind < 32) {
                const char32_t cp = char32_t(rng.bounded(0x1F300, 0x1FAFF)); // emoji: a surrogate pair
                line += QChar(QChar::highSurrogate(cp));
                line += QChar(QChar::lowSurrogate(cp));
            } else if (kind < 35) {
                line += QChar(char16_t(rng.bounded(0xA0, 0x800))); // two UTF-8 bytes
            } else if (kind < 37) {
                line += u'\t';
            } else if (kind < 38) {
                line += u'\r';
            } else if (kind < 39) {
                line += QChar(char16_t(0xD800 + rng.bounded(0x400))); // lone high surrogate
            } else {
                line += QChar(char16_t(0xDC00 + rng.bounded(0x400))); // lone low surrogate
            }
        }
        if (rng.bounded(4) == 0)
            line += u'\r'; // "\r\n" line ends
        text += line;
        if (l + 1 < lines || rng.bounded(2) == 0)
            text += u'\n';
    }
    return text;
}

// The rules written out plainly, to check the fast versions against.
int referenceLineCount(const QString &text)
{
    if (text.isEmpty())
        return 0;
    int newlines = 0;
    for (const QChar c : text) {
        if (c == u'\n')
            ++newlines;
    }
    return text.endsWith(u'\n') ? newlines : newlines + 1;
}

QString referencePlaceholder(const OffloadEntry &entry, const QString &content, int previewLines)
{
    const int shown = std::max(0, std::min(previewLines, entry.lines));
    QString text = u"[offloaded: %1 | %2 lines, %3 bytes]\nPreview (first %4 lines):\n"_s.arg(
        entry.relativePath, QString::number(entry.lines), QString::number(entry.bytes), QString::number(shown));
    const QStringList parts = content.split(u'\n');
    for (int i = 0; i < shown && i < parts.size(); ++i) {
        QString line = parts[i];
        if (line.endsWith(u'\r'))
            line.chop(1);
        // Cut to 500 UTF-8 bytes, never inside a character (a lone surrogate counts 3, as U+FFFD).
        qsizetype bytes = 0;
        qsizetype keep = 0;
        while (keep < line.size()) {
            const QChar c = line.at(keep);
            const bool pair = c.isHighSurrogate() && keep + 1 < line.size() && line.at(keep + 1).isLowSurrogate();
            const qsizetype n = pair ? 4 : c.unicode() < 0x80 ? 1 : c.unicode() < 0x800 ? 2 : 3;
            if (bytes + n > 500)
                break;
            bytes += n;
            keep += pair ? 2 : 1;
        }
        if (keep < line.size()) {
            line.truncate(keep);
            line += u'\u2026';
        }
        text += line + u'\n';
    }
    return text + u"... full output saved; read it with read_file(path, offset, limit)"_s;
}

// The file holds what QString::toUtf8() writes, which turns a lone surrogate into '?' (1 byte)
// where sizes count 3 (U+FFFD): compared only on text without them.
QString withoutLoneSurrogates(const QString &text)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const QChar c = text[i];
        if (c.isHighSurrogate() && i + 1 < text.size() && text[i + 1].isLowSurrogate()) {
            out += c;
            out += text[++i];
        } else if (!c.isSurrogate()) {
            out += c;
        }
    }
    return out;
}

QString referenceFileId(const QString &callId)
{
    static const QRegularExpression raw(u"^[A-Za-z0-9_-]{1,128}$"_s);
    static const QRegularExpression capital(u"[A-Z]"_s);
    if (raw.match(callId).hasMatch()) {
        if (!capital.match(callId).hasMatch())
            return callId;
        return callId + u'.' + QString::fromLatin1(QCryptographicHash::hash(callId.toUtf8(), QCryptographicHash::Sha256).toHex().left(12));
    }
    return u"h."_s + QString::fromLatin1(QCryptographicHash::hash(callId.toUtf8(), QCryptographicHash::Sha256).toHex());
}

void addSeeds()
{
    QTest::addColumn<quint32>("seed");
    for (quint32 seed : {1u, 2u, 3u, 17u, 99u, 2024u, 31337u, 4242424u})
        QTest::addRow("seed-%u", seed) << seed;
}
} // namespace

class TestOffloadStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fileIds_data();
    void fileIds();

    void writesFile();               // scenario 16
    void lineCounts_data();
    void lineCounts();
    void placeholderFormat_data();
    void placeholderFormat();
    void lineCountMatchesReference_data();
    void lineCountMatchesReference();
    void placeholderMatchesReference_data();
    void placeholderMatchesReference();
    void fileIdMatchesReference_data();
    void fileIdMatchesReference();
    void simulatedMatchesDisk_data();
    void simulatedMatchesDisk();

    void gate1_data();               // scenario 17
    void gate1();
    void refused_data();
    void refused();

    void existingFileReused();       // scenario 18
    void hostileCallIds_data();      // scenario 19
    void hostileCallIds();
    void differentIdsNeverShareAFile();
    void repeatedCallIdGetsItsOwnFile();
    void idsDifferingInCaseStayApart_data();
    void idsDifferingInCaseStayApart();
    void notSmallerIsRefusedBeforeWriting_data();
    void notSmallerIsRefusedBeforeWriting();
    void unsafeSessionRefused_data();
    void unsafeSessionRefused();

    void failuresKeepContent_data(); // scenario 20
    void failuresKeepContent();
    void readOnlyWorkspace();
    void privateWhateverTheUmask();
    void waterlineFolderIsGitIgnored();
    void symlinkOutsideWorkspaceRefused();
    void missingWorkspace();
};

void TestOffloadStore::fileIds_data()
{
    QTest::addColumn<QString>("callId");
    QTest::addColumn<QString>("fileId");
    QTest::newRow("openai") << u"call_abc123"_s << u"call_abc123"_s;
    // Capitals: a digest of the exact spelling keeps the name apart from "call_abc123" where case is ignored.
    QTest::newRow("openai, capitals") << u"call_AbC123"_s << u"call_AbC123.7063d5b195c9"_s;
    QTest::newRow("anthropic") << u"toolu_01A-b_c"_s << u"toolu_01A-b_c.dc4bc8c2aab7"_s;
    QTest::newRow("128-chars") << QString(128, u'x') << QString(128, u'x');
    // Expected digests computed independently (Python hashlib.sha256 over the UTF-8 bytes).
    QTest::newRow("traversal") << u"../../etc/passwd"_s << u"h.3754d6cb3a38e1185e5b382d5f3ef3f118af75bf4bf0254d1fdb8437f51423e0"_s;
    QTest::newRow("slash") << u"a/b"_s << u"h.c14cddc033f64b9dea80ea675cf280a015e672516090a5626781153dc68fea11"_s;
    QTest::newRow("dotdot") << u".."_s << u"h.5ec1f7e700f37c3d0b2981d04855fc34b94aaa15457b05ca571817442d228f81"_s;
    QTest::newRow("non-ascii") << u"调用-1"_s << u"h.258bdc92f0abe232be804073fe7872b4a2fdac05b506c96f3a3f2c80722a7552"_s;
}

void TestOffloadStore::fileIds()
{
    QFETCH(QString, callId);
    QFETCH(QString, fileId);
    QCOMPARE(OffloadStore::fileIdFor(callId), fileId);
}

void TestOffloadStore::writesFile()
{
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    const QString content = numberedLines(1000);
    const QByteArray utf8 = content.toUtf8();
    OffloadStore store(workspace.path(), u"s1"_s);
    const auto r = store.offload(result(u"call_1"_s, content, 42), u"bash"_s, 1, 20);
    QVERIFY2(r.ok, qPrintable(r.error));
    QVERIFY(!r.reused);
    QVERIFY(r.error.isEmpty());

    const QString relative = u".waterline/tool_results/s1/call_1.txt"_s;
    const QString path = workspace.filePath(relative);
    QCOMPARE(store.relativePathFor(u"call_1"_s), relative);
    QCOMPARE(store.absolutePathFor(u"call_1"_s), path);
    QCOMPARE(readAll(path), utf8);
    QCOMPARE(modeOf(path), 0600);
    QCOMPARE(modeOf(workspace.filePath(u".waterline"_s)), 0700);
    QCOMPARE(modeOf(workspace.filePath(u".waterline/tool_results"_s)), 0700);
    QCOMPARE(modeOf(workspace.filePath(u".waterline/tool_results/s1"_s)), 0700);
    QCOMPARE(QFileInfo(store.sessionDir()).canonicalFilePath(), QFileInfo(workspace.filePath(u".waterline/tool_results/s1"_s)).canonicalFilePath());
    // No temporary file left behind by the atomic write.
    QCOMPARE(QDir(store.sessionDir()).entryList(QDir::Files | QDir::Hidden), QStringList{u"call_1.txt"_s});

    QCOMPARE(r.entry.callId, u"call_1"_s);
    QCOMPARE(r.entry.toolName, u"bash"_s);
    QCOMPARE(r.entry.relativePath, relative);
    QCOMPARE(r.entry.bytes, qint64(utf8.size()));
    QCOMPARE(r.entry.lines, 1000);
    QCOMPARE(r.entry.gate, 1);
    QCOMPARE(r.entry.messageId, qint64(42));

    QVERIFY(OffloadStore::isPlaceholder(r.placeholder));
    QVERIFY(r.placeholder.startsWith(u"[offloaded: %1 | 1000 lines, %2 bytes]\n"_s.arg(relative).arg(utf8.size())));
    QVERIFY(r.placeholder.contains(u"Preview (first 20 lines):\nline 1\nline 2\n"_s));
    QVERIFY(r.placeholder.contains(u"\nline 20\n"_s));
    QVERIFY(!r.placeholder.contains(u"line 21"_s));
}

void TestOffloadStore::lineCounts_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<int>("lines");
    QTest::newRow("empty") << QString() << 0;
    QTest::newRow("one-no-newline") << u"a"_s << 1;
    QTest::newRow("one-with-newline") << u"a\n"_s << 1;
    QTest::newRow("two") << u"a\nb"_s << 2;
    QTest::newRow("two-trailing") << u"a\nb\n"_s << 2;
    QTest::newRow("blank-line") << u"\n"_s << 1;
    QTest::newRow("inner-blank") << u"a\n\nb"_s << 3;
    QTest::newRow("crlf") << u"a\r\nb\r\n"_s << 2;
    QTest::newRow("cjk") << u"上\n下\n文"_s << 3;
}

void TestOffloadStore::lineCounts()
{
    QFETCH(QString, content);
    QFETCH(int, lines);
    QTemporaryDir workspace;
    const auto r = OffloadStore(workspace.path(), u"s"_s).offload(result(u"c"_s, content), u"bash"_s, 2, 10);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(r.entry.lines, lines);
    QCOMPARE(r.entry.bytes, qint64(content.toUtf8().size()));
}

void TestOffloadStore::placeholderFormat_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<int>("lines");
    QTest::addColumn<int>("previewLines");
    QTest::addColumn<QString>("expectedPreview"); // the text between the header lines and the footer

    QTest::newRow("cut-at-preview") << u"one\ntwo\nthree\n"_s << 3 << 2 << u"one\ntwo\n"_s;
    QTest::newRow("fewer-lines-than-preview") << u"one\ntwo"_s << 2 << 10 << u"one\ntwo\n"_s;
    QTest::newRow("crlf-stripped") << u"one\r\ntwo\r\n"_s << 2 << 5 << u"one\ntwo\n"_s;
    QTest::newRow("no-preview") << u"one\ntwo"_s << 2 << 0 << QString();
    QTest::newRow("blank-lines-kept") << u"a\n\nb"_s << 3 << 3 << u"a\n\nb\n"_s;
    QTest::newRow("long-line-cut") << QString(1'000'000, u'x') << 1 << 20 << QString(500, u'x') + u"\u2026\n"_s;
    QTest::newRow("exactly-500") << QString(500, u'y') << 1 << 20 << QString(500, u'y') + u'\n';
    // 499 ASCII characters then an emoji: the cut must not leave half a surrogate pair.
    QTest::newRow("surrogate-at-cut") << QString(499, u'z') + u"🚀🚀"_s << 1 << 1 << QString(499, u'z') + u"\u2026\n"_s;
    // Cut in UTF-8 bytes: 166 CJK characters are 498 bytes, a 167th would pass 500.
    QTest::newRow("cjk-line") << QString(600, QChar(0x6587)) << 1 << 1 << QString(166, QChar(0x6587)) + u"\u2026\n"_s;
    QTest::newRow("two-byte-line") << QString(300, QChar(0xe9)) << 1 << 1 << QString(250, QChar(0xe9)) + u"\u2026\n"_s;
    QTest::newRow("emoji-at-byte-cut") << QString(498, u'z') + u"🚀"_s << 1 << 1 << QString(498, u'z') + u"\u2026\n"_s;
    // The last line shown is read only a little past its cut; a "\r" near the cut must still
    // count as it does in the whole line.
    QTest::newRow("long-last-shown-line") << u"a\n"_s + QString(800, u'x') + u"\nb"_s << 3 << 2 << u"a\n"_s + QString(500, u'x') + u"\u2026\n"_s;
    QTest::newRow("cr-at-cut") << QString(500, u'x') + u"\r\nb"_s << 2 << 1 << QString(500, u'x') + u'\n';
    QTest::newRow("cr-after-cut") << QString(501, u'x') + u"\r\nb"_s << 2 << 1 << QString(500, u'x') + u"\u2026\n"_s;
    QTest::newRow("cr-inside-long-line") << QString(501, u'x') + u'\r' + QString(300, u'y') << 1 << 1 << QString(500, u'x') + u"\u2026\n"_s;
    QTest::newRow("non-ascii-past-cut") << QString(501, u'x') + QString(10, QChar(0x6587)) << 1 << 1 << QString(500, u'x') + u"\u2026\n"_s;
}

void TestOffloadStore::placeholderFormat()
{
    QFETCH(QString, content);
    QFETCH(int, lines);
    QFETCH(int, previewLines);
    QFETCH(QString, expectedPreview);
    OffloadEntry entry;
    entry.relativePath = u".waterline/tool_results/sess/call_9.txt"_s;
    entry.lines = lines;
    entry.bytes = content.toUtf8().size();
    const int shown = std::min(lines, previewLines);
    const QString expected = u"[offloaded: .waterline/tool_results/sess/call_9.txt | "_s + QString::number(lines)
                             + u" lines, "_s + QString::number(entry.bytes) + u" bytes]\nPreview (first "_s
                             + QString::number(shown) + u" lines):\n"_s + expectedPreview
                             + u"... full output saved; read it with read_file(path, offset, limit)"_s;
    QCOMPARE(OffloadStore::placeholderText(entry, content, previewLines), expected);

    // The store produces the same text, both when it writes the file and when it reuses it.
    QTemporaryDir workspace;
    OffloadStore store(workspace.path(), u"sess"_s);
    const auto first = store.offload(result(u"call_9"_s, content), u"bash"_s, 2, previewLines);
    QVERIFY2(first.ok, qPrintable(first.error));
    QCOMPARE(first.placeholder, expected);
    const auto again = store.offload(result(u"call_9"_s, content), u"bash"_s, 2, previewLines);
    QVERIFY(again.reused);
    QCOMPARE(again.placeholder, expected);
}

void TestOffloadStore::lineCountMatchesReference_data()
{
    addSeeds();
}

void TestOffloadStore::lineCountMatchesReference()
{
    QFETCH(quint32, seed);
    QRandomGenerator rng(seed);
    for (int i = 0; i < 200; ++i) {
        const QString text = randomText(rng);
        // Views that start at every offset within a SIMD block and end anywhere.
        for (qsizetype from : {0, 1, 3, 7}) {
            if (from > text.size())
                break;
            const qsizetype to = text.size() - (text.isEmpty() ? 0 : qsizetype(rng.bounded(int(std::min<qsizetype>(40, text.size() - from + 1)))));
            const QString part = text.sliced(from, std::max(from, to) - from);
            QCOMPARE(lineCount(QStringView(text).sliced(from, part.size())), referenceLineCount(part));
        }
    }
    // Runs of newlines long enough to fill the 16-bit counters' blocks.
    for (qsizetype n : {31, 32, 33, 65'535, 65'536, 300'000}) {
        const QString newlines(n, u'\n');
        QCOMPARE(lineCount(newlines), int(n));
        QCOMPARE(lineCount(QString(newlines + u'x')), int(n + 1));
    }
}

void TestOffloadStore::placeholderMatchesReference_data()
{
    addSeeds();
}

void TestOffloadStore::placeholderMatchesReference()
{
    QFETCH(quint32, seed);
    QRandomGenerator rng(seed);
    for (int i = 0; i < 200; ++i) {
        const QString content = randomText(rng);
        OffloadEntry entry;
        switch (rng.bounded(3)) {
        case 0: entry.relativePath = u".waterline/tool_results/s/call_%1.txt"_s.arg(i); break;
        case 1: entry.relativePath = u".waterline/tool_results/s/h.%1.txt"_s.arg(rng.generate64(), 0, 16); break;
        default: entry.relativePath = u"工作/🚀/r%1.txt"_s.arg(i); break; // not one the store makes; still shown as given
        }
        entry.bytes = rng.bounded(8) ? content.toUtf8().size() : qint64(rng.generate64() >> 1);
        // Mostly the content's own count; now and then a different one (a reused file's count).
        entry.lines = rng.bounded(5) ? referenceLineCount(content) : int(rng.bounded(0, 60));
        const int previewLines = rng.bounded(10) ? int(rng.bounded(0, 25)) : int(rng.bounded(25, 1000));
        qint64 bytes = -1;
        const QString text = OffloadStore::placeholderText(entry, content, previewLines, &bytes);
        QCOMPARE(text, referencePlaceholder(entry, content, previewLines));
        QCOMPARE(bytes, TokenEstimate::utf8Bytes(text)); // the size the view's sum uses
    }
}

void TestOffloadStore::fileIdMatchesReference_data()
{
    addSeeds();
}

void TestOffloadStore::fileIdMatchesReference()
{
    QFETCH(quint32, seed);
    QRandomGenerator rng(seed);
    static constexpr char16_t odd[] = {u'.', u'/', u'\\', u' ', u'\n', u'\0', u'%', u'\u00e9', u'\u8c03', u'\xd83d'};
    for (int i = 0; i < 500; ++i) {
        const qsizetype length = rng.bounded(8) ? rng.bounded(1, 40) : rng.bounded(120, 135);
        QString id;
        while (id.size() < length) {
            static constexpr QStringView plain = u"abcxyzABCXYZ0189_-";
            id += plain[rng.bounded(int(plain.size()))];
        }
        if (rng.bounded(3) == 0) // one character that is not plain, anywhere (the end included)
            id[rng.bounded(int(id.size()))] = QChar(odd[rng.bounded(int(std::size(odd)))]);
        QCOMPARE(OffloadStore::fileIdFor(id), referenceFileId(id));
    }
    QCOMPARE(OffloadStore::fileIdFor(QString()), referenceFileId(QString()));
}

void TestOffloadStore::simulatedMatchesDisk_data()
{
    addSeeds();
}

void TestOffloadStore::simulatedMatchesDisk()
{
    // The simulated offloader (what-if replays, benchmarks) must give exactly what the store gives.
    QFETCH(quint32, seed);
    QRandomGenerator rng(seed);
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    const OffloadStore store(workspace.path(), u"sess"_s);
    const Offloader simulated = Offloader::simulated(u"sess"_s);
    for (int i = 0; i < 15; ++i) {
        const QString content = withoutLoneSurrogates(randomText(rng));
        Message m = result(u"call_%1_%2"_s.arg(seed).arg(i), content, 100 + i);
        m.cacheBytes();
        const int previewLines = int(rng.bounded(0, 25));
        const auto disk = store.offload(m, u"bash"_s, 2, previewLines);
        QVERIFY2(disk.ok, qPrintable(disk.error));
        const auto sim = simulated.offload(QList<Message>{m}, 0, u"bash"_s, 2, previewLines);
        if (sim.notSmaller) {
            // Refused as the disk path refuses it: the placeholder would not be smaller.
            QVERIFY(!store.shrinks(m, previewLines));
            QVERIFY(TokenEstimate::utf8Bytes(disk.placeholder) >= disk.entry.bytes);
            continue;
        }
        QVERIFY(store.shrinks(m, previewLines));
        QVERIFY2(sim.ok, qPrintable(sim.error));
        QCOMPARE(sim.entry, disk.entry);
        QCOMPARE(sim.placeholder, disk.placeholder);
        QCOMPARE(sim.placeholderBytes, qint64(sim.placeholder.toUtf8().size()));
    }
}

void TestOffloadStore::gate1_data()
{
    QTest::addColumn<QString>("tool");
    QTest::addColumn<qint64>("bytes");
    QTest::addColumn<bool>("applies");
    QTest::newRow("below") << u"bash"_s << qint64(9'999) << false;
    QTest::newRow("at-threshold") << u"bash"_s << qint64(10'000) << false;
    QTest::newRow("above") << u"bash"_s << qint64(10'001) << true;
    QTest::newRow("read_file-exempt") << u"read_file"_s << qint64(1'000'000) << false;
    QTest::newRow("write_file-exempt") << u"write_file"_s << qint64(1'000'000) << false;
    QTest::newRow("edit_file-exempt") << u"edit_file"_s << qint64(1'000'000) << false;
    QTest::newRow("similar-name-not-exempt") << u"read_files"_s << qint64(1'000'000) << true;
    // Issue #31: other agents' file tools are exempt by what they do, not by Waterline's names.
    for (const QString &tool : {u"Read"_s, u"Write"_s, u"Edit"_s, u"MultiEdit"_s, u"NotebookEdit"_s, u"NotebookRead"_s,
                                u"apply_patch"_s, u"str_replace_editor"_s, u"str_replace_based_edit_tool"_s, u"file_editor"_s})
        QTest::addRow("%s-exempt", qPrintable(tool)) << tool << qint64(1'000'000) << false;
    // Commands and searches are not file reads, whoever runs them.
    for (const QString &tool : {u"Bash"_s, u"exec_command"_s, u"execute_bash"_s, u"Grep"_s, u"WebFetch"_s})
        QTest::addRow("%s-not-exempt", qPrintable(tool)) << tool << qint64(1'000'000) << true;
    QTest::newRow("empty-tool-name") << QString() << qint64(10'001) << true;
}

void TestOffloadStore::gate1()
{
    QFETCH(QString, tool);
    QFETCH(qint64, bytes);
    QFETCH(bool, applies);
    QCOMPARE(OffloadStore::gate1Applies(tool, bytes, 10'000), applies);
}

void TestOffloadStore::refused_data()
{
    QTest::addColumn<Message>("message");
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("no-call-id") << Message::user(numberedLines(2000)) << u"no tool call id"_s;
    QTest::newRow("empty-call-id") << result(QString(), numberedLines(2000)) << u"no tool call id"_s;
    QTest::newRow("already-placeholder")
        << result(u"call_2"_s, u"[offloaded: .waterline/tool_results/s/call_2.txt | 3 lines, 9 bytes]\nPreview (first 0 lines):\n"_s)
        << u"already a placeholder"_s;
}

void TestOffloadStore::refused()
{
    QFETCH(Message, message);
    QFETCH(QString, errorContains);
    QTemporaryDir workspace;
    const auto r = OffloadStore(workspace.path(), u"s"_s).offload(message, u"bash"_s, 2, 10);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
    QVERIFY(r.placeholder.isEmpty());
    QVERIFY(!QFileInfo::exists(workspace.filePath(u".waterline"_s)));
}

void TestOffloadStore::existingFileReused()
{
    QTemporaryDir workspace;
    OffloadStore store(workspace.path(), u"s1"_s);
    const auto first = store.offload(result(u"call_5"_s, numberedLines(100)), u"bash"_s, 1, 20);
    QVERIFY2(first.ok, qPrintable(first.error));
    const QString path = store.absolutePathFor(u"call_5"_s);

    const QByteArray edited = "edited on disk\nsecond\nthird\n";
    QVERIFY(writeFile(path, edited));
    const auto second = store.offload(result(u"call_5"_s, numberedLines(300)), u"grep"_s, 2, 20);
    QVERIFY2(second.ok, qPrintable(second.error));
    QVERIFY(second.reused);
    QCOMPARE(readAll(path), edited); // the change survives
    QCOMPARE(second.entry.bytes, qint64(edited.size()));
    QCOMPARE(second.entry.lines, 3);
    QCOMPARE(second.entry.gate, 2);
    QCOMPARE(second.entry.toolName, u"grep"_s);
    QVERIFY(second.placeholder.contains(u"| 3 lines, %1 bytes]"_s.arg(edited.size())));
    QVERIFY(second.placeholder.contains(u"Preview (first 3 lines):\nedited on disk\nsecond\nthird\n"_s));
}

void TestOffloadStore::hostileCallIds_data()
{
    QTest::addColumn<QString>("callId");
    QTest::newRow("traversal") << u"../../etc/passwd"_s;
    QTest::newRow("slash") << u"a/b"_s;
    QTest::newRow("dotdot") << u".."_s;
    QTest::newRow("dot") << u"."_s;
    QTest::newRow("300-chars") << QString(300, u'q');
    QTest::newRow("non-ascii") << u"调用-ü-1"_s;
    QTest::newRow("absolute") << u"/etc/passwd"_s;
    QTest::newRow("backslash") << u"..\\..\\x"_s;
    QTest::newRow("nul") << u"a\0b"_s;
    QTest::newRow("newline") << u"a\nb"_s;
    QTest::newRow("looks-hashed") << u"h.abc"_s;
}

void TestOffloadStore::hostileCallIds()
{
    QFETCH(QString, callId);
    QTemporaryDir workspace;
    OffloadStore store(workspace.path(), u"s1"_s);
    const auto r = store.offload(result(callId, numberedLines(50)), u"bash"_s, 1, 5);
    QVERIFY2(r.ok, qPrintable(r.error));
    const QString path = store.absolutePathFor(callId);
    const QFileInfo info(path);
    QVERIFY(info.isFile());
    QCOMPARE(info.canonicalPath(), QFileInfo(store.sessionDir()).canonicalFilePath());
    QVERIFY(info.fileName().startsWith(u"h."_s));
    QCOMPARE(info.fileName().size(), 2 + 64 + 4);
    QCOMPARE(r.entry.callId, callId); // the record keeps the real id
    // Nothing else was created anywhere in the workspace.
    QStringList all;
    for (const QFileInfo &entry : QDir(workspace.path()).entryInfoList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden))
        all << entry.fileName();
    QCOMPARE(all, QStringList{u".waterline"_s});
    QCOMPARE(QDir(store.sessionDir()).entryList(QDir::Files | QDir::Hidden).size(), 1);
}

void TestOffloadStore::differentIdsNeverShareAFile()
{
    const QStringList ids{u"../../etc/passwd"_s, u"a/b"_s, u"a_b"_s, u"a-b"_s, u".."_s, u"."_s, QString(300, u'q'),
                          QString(128, u'q'), QString(129, u'q'), u"调用"_s, u"调用-1"_s, u"h.abc"_s, u"habc"_s, u"A"_s, u"a"_s};
    QTemporaryDir workspace;
    OffloadStore store(workspace.path(), u"s1"_s);
    QSet<QString> paths;
    for (const QString &id : ids) {
        const auto r = store.offload(result(id, u"content of "_s + id), u"bash"_s, 1, 5);
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(!r.reused);
        paths.insert(QFileInfo(store.absolutePathFor(id)).canonicalFilePath());
    }
    QCOMPARE(paths.size(), ids.size());
    for (const QString &id : ids)
        QCOMPARE(QString::fromUtf8(readAll(store.absolutePathFor(id))), u"content of "_s + id);
}

void TestOffloadStore::repeatedCallIdGetsItsOwnFile()
{
    // Servers that number calls per response send call_0 again and again; imports keep them.
    QTemporaryDir workspace;
    OffloadStore store(workspace.path(), u"s1"_s);
    QList<Message> history{result(u"call_0"_s, numberedLines(400), 10), Message::user(u"again"_s),
                           result(u"call_0"_s, u"other output\n"_s.repeated(400), 12)};
    QCOMPARE(OffloadStore::occurrenceOf(history, 0), 0);
    QCOMPARE(OffloadStore::occurrenceOf(history, 2), 1);
    const auto first = store.offload(history[0], u"bash"_s, 2, 5, OffloadStore::occurrenceOf(history, 0));
    const auto second = store.offload(history[2], u"bash"_s, 2, 5, OffloadStore::occurrenceOf(history, 2));
    QVERIFY2(first.ok && second.ok, qPrintable(first.error + second.error));
    QVERIFY(!second.reused); // never the first one's file
    QCOMPARE(first.entry.relativePath, u".waterline/tool_results/s1/call_0.txt"_s);
    QCOMPARE(second.entry.relativePath, u".waterline/tool_results/s1/call_0.2.txt"_s);
    QCOMPARE(QString::fromUtf8(readAll(workspace.filePath(second.entry.relativePath))), history[2].content);
    QVERIFY(second.placeholder.contains(u"other output"_s));
    QVERIFY(!second.placeholder.contains(u"line 1"_s));
    QCOMPARE(second.entry.bytes, qint64(history[2].content.toUtf8().size()));
    // Offloading the second again (a retry) reuses its own file.
    const auto again = store.offload(history[2], u"bash"_s, 2, 5, 1);
    QVERIFY(again.reused);
    QCOMPARE(again.placeholder, second.placeholder);
}

void TestOffloadStore::idsDifferingInCaseStayApart_data()
{
    QTest::addColumn<QString>("a");
    QTest::addColumn<QString>("b");
    QTest::newRow("Call_A / call_a") << u"Call_A"_s << u"call_a"_s;
    QTest::newRow("Call_A / CALL_A") << u"Call_A"_s << u"CALL_A"_s;
    QTest::newRow("toolu_01Ab / toolu_01aB") << u"toolu_01Ab"_s << u"toolu_01aB"_s;
}

void TestOffloadStore::idsDifferingInCaseStayApart()
{
    // On a file system that ignores case (macOS, Windows) the two names must still differ.
    QFETCH(QString, a);
    QFETCH(QString, b);
    QVERIFY(OffloadStore::fileIdFor(a).compare(OffloadStore::fileIdFor(b), Qt::CaseInsensitive) != 0);
    QVERIFY(OffloadStore::fileIdFor(a, 1).compare(OffloadStore::fileIdFor(b, 1), Qt::CaseInsensitive) != 0);
    QVERIFY(OffloadStore::fileIdFor(a).compare(OffloadStore::fileIdFor(a, 1), Qt::CaseInsensitive) != 0);
}

void TestOffloadStore::notSmallerIsRefusedBeforeWriting_data()
{
    QTest::addColumn<QString>("content");
    QTest::addColumn<int>("previewLines");
    QTest::addColumn<bool>("shrinks");
    QTest::newRow("ok") << u"ok"_s << 10 << false;
    QString nine;
    for (int i = 0; i < 9; ++i)
        nine += QString(450, u'x') + u'\n';
    QTest::newRow("nine 450-char lines, 10 shown") << nine << 10 << false;
    QTest::newRow("nine 450-char lines, 2 shown") << nine << 2 << true;
    QString cjk;
    for (int i = 0; i < 9; ++i)
        cjk += QString(200, QChar(0x6587)) + u'\n';
    QTest::newRow("cjk lines, cut in bytes") << cjk << 10 << true;
}

void TestOffloadStore::notSmallerIsRefusedBeforeWriting()
{
    QFETCH(QString, content);
    QFETCH(int, previewLines);
    QFETCH(bool, shrinks);
    QTemporaryDir workspace;
    const OffloadStore store(workspace.path(), u"s1"_s);
    Message m = result(u"call_1"_s, content, 5);
    m.cacheBytes();
    QCOMPARE(store.shrinks(m, previewLines), shrinks);
    // Through the offloader a compaction uses: nothing written when it would not shrink.
    const Offloader disk = Offloader::disk(workspace.path(), u"s1"_s);
    const Offloader simulated = Offloader::simulated(u"s1"_s);
    const QList<Message> history{m};
    const auto r = disk.offload(history, 0, u"bash"_s, 2, previewLines);
    const auto sim = simulated.offload(history, 0, u"bash"_s, 2, previewLines);
    QCOMPARE(r.notSmaller, !shrinks);
    QCOMPARE(sim.notSmaller, !shrinks);
    QCOMPARE(r.ok, shrinks);
    QVERIFY(r.error.isEmpty());
    QCOMPARE(QFileInfo::exists(workspace.filePath(u".waterline/tool_results/s1/call_1.txt"_s)), shrinks);
    if (shrinks) {
        QVERIFY(TokenEstimate::utf8Bytes(r.placeholder) < TokenEstimate::utf8Bytes(content));
        QCOMPARE(sim.placeholder, r.placeholder);
    }
}

void TestOffloadStore::unsafeSessionRefused_data()
{
    QTest::addColumn<QString>("session");
    QTest::newRow("empty") << QString();
    QTest::newRow("traversal") << u"../other"_s;
    QTest::newRow("dotdot") << u".."_s;
    QTest::newRow("slash") << u"a/b"_s;
}

void TestOffloadStore::unsafeSessionRefused()
{
    QFETCH(QString, session);
    QTemporaryDir workspace;
    OffloadStore store(workspace.path(), session);
    const auto r = store.offload(result(u"call_1"_s, numberedLines(50)), u"bash"_s, 1, 5);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"session id"_s), qPrintable(r.error));
    QVERIFY(store.absolutePathFor(u"call_1"_s).isEmpty());
    QVERIFY(QDir(workspace.path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
}

void TestOffloadStore::failuresKeepContent_data()
{
    // Each row puts something in the way that even root cannot write through.
    QTest::addColumn<QString>("blockingFile");   // relative path made a regular file
    QTest::addColumn<QString>("blockingDir");    // relative path made a folder
    QTest::addColumn<QString>("errorContains");
    QTest::newRow("file-instead-of-.waterline") << u".waterline"_s << QString() << u".waterline"_s;
    QTest::newRow("file-instead-of-tool_results") << u".waterline/tool_results"_s << QString() << u"tool_results"_s;
    QTest::newRow("file-instead-of-session") << u".waterline/tool_results/s1"_s << QString() << u"tool_results/s1"_s;
    QTest::newRow("folder-instead-of-result") << QString() << u".waterline/tool_results/s1/call_1.txt"_s << u"call_1.txt"_s;
}

void TestOffloadStore::failuresKeepContent()
{
    QFETCH(QString, blockingFile);
    QFETCH(QString, blockingDir);
    QFETCH(QString, errorContains);
    QTemporaryDir workspace;
    QDir root(workspace.path());
    if (!blockingFile.isEmpty()) {
        QVERIFY(root.mkpath(QFileInfo(blockingFile).path()));
        QVERIFY(writeFile(root.filePath(blockingFile), "in the way"));
    }
    if (!blockingDir.isEmpty())
        QVERIFY(root.mkpath(blockingDir));

    const Message message = result(u"call_1"_s, numberedLines(500));
    const Message copy = message;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"offload failed: .*"_s + QRegularExpression::escape(errorContains)));
    const auto r = OffloadStore(workspace.path(), u"s1"_s).offload(message, u"bash"_s, 2, 10);
    QVERIFY(!r.ok);
    QVERIFY(r.placeholder.isEmpty());
    QVERIFY2(r.error.contains(errorContains), qPrintable(r.error));
    QVERIFY(message.sameContent(copy));
    if (!blockingFile.isEmpty())
        QCOMPARE(readAll(root.filePath(blockingFile)), QByteArray("in the way"));
}

void TestOffloadStore::readOnlyWorkspace()
{
    QTemporaryDir workspace;
    QVERIFY(QFile::setPermissions(workspace.path(), QFile::ReadOwner | QFile::ExeOwner)); // 0500
    QCOMPARE(modeOf(workspace.path()), 0500);
    const bool writable = ::access(QFile::encodeName(workspace.path()).constData(), W_OK) == 0; // true for root
    if (!writable)
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"offload failed: .*cannot create the folder"_s));
    const auto r = OffloadStore(workspace.path(), u"s1"_s).offload(result(u"call_1"_s, numberedLines(500)), u"bash"_s, 2, 10);
    QFile::setPermissions(workspace.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    if (writable) {
        // Permission bits do not stop root: then the write must have fully succeeded.
        QVERIFY2(r.ok, qPrintable(r.error));
        QCOMPARE(modeOf(workspace.filePath(r.entry.relativePath)), 0600);
    } else {
        QVERIFY(!r.ok);
        QVERIFY(r.placeholder.isEmpty());
        QVERIFY2(r.error.contains(workspace.path()), qPrintable(r.error));
    }
}

void TestOffloadStore::symlinkOutsideWorkspaceRefused()
{
    QTemporaryDir workspace;
    QTemporaryDir elsewhere;
    QVERIFY(QFile::link(elsewhere.path(), workspace.filePath(u".waterline"_s)));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"offload failed: .*outside the workspace"_s));
    const auto r = OffloadStore(workspace.path(), u"s1"_s).offload(result(u"call_1"_s, numberedLines(500)), u"bash"_s, 2, 10);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(u"outside the workspace"_s), qPrintable(r.error));
    // Nothing at all was created through the link.
    QVERIFY(QDir(elsewhere.path()).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden));
}

void TestOffloadStore::missingWorkspace()
{
    QTemporaryDir parent;
    const QString missing = parent.filePath(u"gone"_s);
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression(u"offload failed: .*does not exist"_s));
    const auto r = OffloadStore(missing, u"s1"_s).offload(result(u"call_1"_s, numberedLines(500)), u"bash"_s, 2, 10);
    QVERIFY(!r.ok);
    QVERIFY2(r.error.contains(missing), qPrintable(r.error));
    QVERIFY(!QFileInfo::exists(missing)); // the workspace is never created by the store
}

void TestOffloadStore::privateWhateverTheUmask()
{
    const mode_t oldMask = ::umask(0);
    const auto restore = qScopeGuard([&] { ::umask(oldMask); });
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    OffloadStore store(workspace.path(), u"s1"_s);
    const auto r = store.offload(result(u"call_1"_s, numberedLines(500), 7), u"bash"_s, 1, 20);
    QVERIFY2(r.ok, qPrintable(r.error));
    QCOMPARE(modeOf(workspace.filePath(r.entry.relativePath)), 0600);
    for (const QString &level : {u".waterline"_s, u".waterline/tool_results"_s, u".waterline/tool_results/s1"_s})
        QCOMPARE(modeOf(workspace.filePath(level)), 0700);
    QCOMPARE(modeOf(workspace.filePath(u".waterline/.gitignore"_s)), 0600);
}

void TestOffloadStore::waterlineFolderIsGitIgnored()
{
    QTemporaryDir workspace;
    QVERIFY(workspace.isValid());
    OffloadStore store(workspace.path(), u"s1"_s);
    QVERIFY(store.offload(result(u"call_1"_s, numberedLines(500), 7), u"bash"_s, 1, 20).ok);
    QCOMPARE(readAll(workspace.filePath(u".waterline/.gitignore"_s)), QByteArray("*\n"));
    // One the user wrote is kept.
    QFile mine(workspace.filePath(u".waterline/.gitignore"_s));
    QVERIFY(mine.open(QIODevice::WriteOnly | QIODevice::Truncate));
    mine.write("# mine\n*\n");
    mine.close();
    OffloadStore other(workspace.path(), u"s2"_s);
    QVERIFY(other.offload(result(u"call_2"_s, numberedLines(500), 8), u"bash"_s, 1, 20).ok);
    QCOMPARE(readAll(workspace.filePath(u".waterline/.gitignore"_s)), QByteArray("# mine\n*\n"));
}

QTEST_GUILESS_MAIN(TestOffloadStore)
#include "tst_offloadstore.moc"
