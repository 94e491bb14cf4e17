#include "OffloadStore.h"

#include "ToolKind.h"

#include "LoggingCategories.h"
#include "Paths.h"
#include "PrivateFiles.h"
#include "model/Utf8.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>
#include <QVarLengthArray>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// A preview line is cut to this many UTF-8 bytes (what the model pays for), never inside a sequence.
constexpr qsizetype kPreviewLineCutBytes = 500;
// A cut preview line holds at most this many UTF-16 units (one per byte at best).
constexpr qsizetype kPreviewLineChars = kPreviewLineCutBytes;
// The bytes of a file line decoded for its preview: enough for any cut line, whatever its characters.
constexpr qsizetype kPreviewLineBytes = kPreviewLineCutBytes + 4;
constexpr QFile::Permissions kDirPermissions = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
constexpr QFile::Permissions kFilePermissions = QFile::ReadOwner | QFile::WriteOwner;

// Writes `bytes` to `path` atomically, readable by its owner only.
bool writePrivateFile(const QString &path, const QByteArray &bytes, QString *error)
{
    QSaveFile file(path);
    // Applied to the temporary file, so the content is never readable by others, not even briefly.
    if (file.open(QIODevice::WriteOnly) && file.setPermissions(kFilePermissions) && file.write(bytes) == bytes.size()
        && file.commit())
        return true;
    *error = QCoreApplication::translate("wl::OffloadStore", "not offloaded: cannot write %1: %2").arg(path, file.errorString());
    return false;
}

// '\n'-separated lines; a trailing newline does not start another line.
int countLines(const QByteArray &utf8)
{
    if (utf8.isEmpty())
        return 0;
    const qsizetype newlines = utf8.count('\n');
    return int(newlines + (utf8.endsWith('\n') ? 0 : 1));
}

// The first `count` lines of a UTF-8 file, each decoded from a bounded prefix so a
// one-line megabyte file costs no more than a short one.
QString previewSource(const QByteArray &utf8, int count)
{
    QString out;
    qsizetype pos = 0;
    for (int i = 0; i < count && pos < utf8.size(); ++i) {
        qsizetype end = utf8.indexOf('\n', pos);
        if (end < 0)
            end = utf8.size();
        if (i > 0)
            out += u'\n';
        out += QString::fromUtf8(utf8.constData() + pos, std::min(end - pos, kPreviewLineBytes));
        pos = end + 1;
    }
    return out;
}

QStringView cutPreviewLine(QStringView line, bool *cut)
{
    if (line.endsWith(u'\r'))
        line.chop(1);
    // A UTF-16 unit never takes more than 3 UTF-8 bytes (a pair: 4 for 2 units): short lines need no count.
    if (line.size() * 3 <= kPreviewLineCutBytes) {
        *cut = false;
        return line;
    }
    qsizetype bytes = 0;
    qsizetype i = 0;
    const qsizetype size = line.size();
    while (i < size) {
        const char16_t u = line[i].unicode();
        qsizetype n = 3; // the rest of the BMP, and a lone surrogate (written as U+FFFD)
        qsizetype units = 1;
        if (u < 0x80) {
            n = 1;
        } else if (u < 0x800) {
            n = 2;
        } else if (QChar::isHighSurrogate(u) && i + 1 < size && line[i + 1].isLowSurrogate()) {
            n = 4;
            units = 2;
        }
        if (bytes + n > kPreviewLineCutBytes)
            break;
        bytes += n;
        i += units;
    }
    *cut = i < size;
    return line.first(i);
}

// Where the line that starts at `from` ends (the index of its '\n', or the text's size), and
// `*ascii`: true when every unit of the line is below 0x80. False can also mean "not known".
qsizetype lineEnd(QStringView text, qsizetype from, bool *ascii)
{
    const char16_t *d = text.utf16();
    const qsizetype len = text.size();
    qsizetype i = from;
    bool plain = true;
#if defined(__SSE2__)
    const __m128i newline = _mm_set1_epi16(short(u'\n'));
    const __m128i nonAscii = _mm_set1_epi16(short(0xFF80));
    const __m128i zero = _mm_setzero_si128();
    __m128i seen = zero; // every unit read, or-ed
    for (; i + 8 <= len; i += 8) {
        const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(d + i));
        seen = _mm_or_si128(seen, c);
        const int found = _mm_movemask_epi8(_mm_cmpeq_epi16(c, newline));
        if (found != 0) {
            // `seen` includes units after the newline: at worst the answer is "not known".
            *ascii = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(seen, nonAscii), zero)) == 0xFFFF;
            return i + std::countr_zero(unsigned(found)) / 2;
        }
    }
    plain = _mm_movemask_epi8(_mm_cmpeq_epi16(_mm_and_si128(seen, nonAscii), zero)) == 0xFFFF;
#endif
    for (; i < len && d[i] != u'\n'; ++i)
        plain = plain && d[i] < 0x80;
    *ascii = plain;
    return i;
}

// A call id that fileIdFor() uses as it is, checked without the regular expression: 1 to 128
// characters from [A-Za-z0-9_-].
bool isPlainFileId(QStringView id)
{
    if (id.isEmpty() || id.size() > 128)
        return false;
    for (const QChar c : id) {
        const char16_t u = c.unicode();
        const bool plain = (u >= u'a' && u <= u'z') || (u >= u'A' && u <= u'Z') || (u >= u'0' && u <= u'9')
            || u == u'_' || u == u'-';
        if (!plain)
            return false;
    }
    return true;
}

// Writes `value` in decimal (as QString::number does) and returns the position after it.
QChar *writeNumber(QChar *out, qint64 value)
{
    char16_t digits[20];
    int n = 0;
    quint64 magnitude = value < 0 ? 0 - quint64(value) : quint64(value);
    do {
        digits[n++] = char16_t(u'0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude != 0);
    if (value < 0)
        *out++ = u'-';
    while (n > 0)
        *out++ = QChar(digits[--n]);
    return out;
}

qsizetype numberLength(qint64 value)
{
    qsizetype n = value < 0 ? 2 : 1;
    for (quint64 magnitude = value < 0 ? 0 - quint64(value) : quint64(value); magnitude >= 10; magnitude /= 10)
        ++n;
    return n;
}

QChar *writeText(QChar *out, QStringView text)
{
    if (!text.isEmpty())
        std::memcpy(static_cast<void *>(out), text.data(), size_t(text.size()) * sizeof(QChar));
    return out + text.size();
}

// Creates `path` as a 0700 folder unless it is one already.
bool ensureDir(const QString &path, QString *error)
{
    const QFileInfo info(path);
    if (info.isDir())
        return true;
    if (info.exists() || info.isSymLink()) {
        *error = QCoreApplication::translate("wl::OffloadStore", "not offloaded: cannot create the folder %1: a file with that name is in the way").arg(path);
        return false;
    }
    if (!QDir().mkdir(path, kDirPermissions)) {
        *error = QCoreApplication::translate("wl::OffloadStore", "not offloaded: cannot create the folder %1").arg(path);
        return false;
    }
    // mkdir is subject to the umask; make the mode exact.
    QFile::setPermissions(path, kDirPermissions);
    return true;
}

// Puts a .gitignore of "*" in Waterline's folder, so offloaded results (command output, file
// contents) are never committed with the project. An existing one is left as it is.
void ignoreInGit(const QString &waterlineDir)
{
    const QByteArray path = QFile::encodeName(waterlineDir + u"/.gitignore"_s);
    const int fd = ::open(path.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0) {
        if (errno != EEXIST)
            qCWarning(lcCompaction) << "cannot create" << path << qt_error_string(errno);
        return;
    }
    constexpr char content[] = "*\n";
    if (::write(fd, content, sizeof(content) - 1) != ssize_t(sizeof(content) - 1))
        qCWarning(lcCompaction) << "cannot write" << path << qt_error_string(errno);
    ::close(fd);
}

} // namespace

OffloadStore::OffloadStore(const QString &workspaceDir, const QString &sessionId)
    : m_workspace(workspaceDir)
    , m_sessionId(sessionId)
{
    // Checked once per store: a compaction pass asks for a path per offloaded result.
    if (Paths::isSafePathComponent(m_sessionId))
        m_relativeDir = Paths::offloadRelativeDir(m_sessionId);
}

bool OffloadStore::prepareFolder(QString *error) const
{
    // Create every level under the workspace ourselves, so each one gets 0700, and stop at the
    // first one that resolves outside the workspace (a symlinked .waterline must not carry results away).
    const QDir workspace(m_workspace);
    const QString canonicalWorkspace = QFileInfo(m_workspace).canonicalFilePath();
    for (const QString &level : {u".waterline"_s, u".waterline/tool_results"_s, Paths::offloadRelativeDir(m_sessionId)}) {
        const QString dir = workspace.filePath(level);
        if (!ensureDir(dir, error))
            return false;
        if (canonicalWorkspace.isEmpty() || !QFileInfo(dir).canonicalFilePath().startsWith(canonicalWorkspace + u'/')) {
            *error = QCoreApplication::translate("wl::OffloadStore", "not offloaded: the offload folder %1 lies outside the workspace").arg(dir);
            return false;
        }
        if (level == u".waterline")
            ignoreInGit(dir);
    }
    return true;
}

namespace {

// Copies the regular files directly in `from` into `to` (0600), never following a link and
// refusing anything that is not a regular file: a results folder holds nothing else.
bool copyResults(const QString &from, const QString &to, QString *error)
{
    const QStringList names = QDir(from).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    for (const QString &name : names) {
        const QByteArray source = QFile::encodeName(from + u'/' + name);
        const int in = ::open(source.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
        struct stat info;
        if (in < 0 || ::fstat(in, &info) != 0 || !S_ISREG(info.st_mode)) {
            if (in >= 0)
                ::close(in);
            *error = QCoreApplication::translate("wl::OffloadStore", "cannot move %1: not a regular file").arg(QFile::decodeName(source));
            return false;
        }
        QFile input;
        input.open(in, QIODevice::ReadOnly, QFileDevice::AutoCloseHandle);
        QSaveFile output(to + u'/' + name);
        if (!output.open(QIODevice::WriteOnly)) {
            *error = QCoreApplication::translate("wl::OffloadStore", "cannot write %1: %2").arg(output.fileName(), output.errorString());
            return false;
        }
        output.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        while (!input.atEnd()) {
            const QByteArray chunk = input.read(1 << 20);
            if (chunk.isEmpty() && input.error() != QFileDevice::NoError)
                break;
            output.write(chunk);
        }
        if (input.error() != QFileDevice::NoError || !output.commit()) {
            *error = QCoreApplication::translate("wl::OffloadStore", "cannot copy %1 to %2: %3")
                         .arg(QFile::decodeName(source), output.fileName(), output.errorString());
            return false;
        }
    }
    return true;
}

} // namespace

bool OffloadStore::moveSessionFolder(const QString &fromWorkspace, const QString &toWorkspace, const QString &sessionId,
                                     QString *error)
{
    if (!Paths::isSafePathComponent(sessionId)) {
        *error = QCoreApplication::translate("wl::OffloadStore", "the session id \"%1\" cannot be used in a file name").arg(sessionId);
        return false;
    }
    const QString relative = Paths::offloadRelativeDir(sessionId);
    const QString from = QDir(fromWorkspace).filePath(relative);
    const QFileInfo source(from);
    if (fromWorkspace.isEmpty() || (!source.exists() && !source.isSymLink()))
        return true; // nothing was offloaded
    const QString canonicalFrom = QFileInfo(fromWorkspace).canonicalFilePath();
    if (source.isSymLink() || !source.isDir() || canonicalFrom.isEmpty()
        || !source.canonicalFilePath().startsWith(canonicalFrom + u'/')) {
        *error = QCoreApplication::translate("wl::OffloadStore", "cannot move the offloaded results: %1 is not a folder inside %2").arg(from, fromWorkspace);
        return false;
    }
    if (canonicalFrom == QFileInfo(toWorkspace).canonicalFilePath())
        return true;
    const OffloadStore target(toWorkspace, sessionId);
    if (!target.prepareFolder(error))
        return false;
    const QString to = target.sessionDir();
    if (!QDir(to).isEmpty()) {
        *error = QCoreApplication::translate("wl::OffloadStore", "cannot move the offloaded results: %1 is not empty").arg(to);
        return false;
    }
    if (::rename(QFile::encodeName(from).constData(), QFile::encodeName(to).constData()) == 0)
        return true;
    if (errno != EXDEV) {
        *error = QCoreApplication::translate("wl::OffloadStore", "cannot move %1 to %2: %3").arg(from, to, qt_error_string(errno));
        return false;
    }
    // Another file system: copy, then remove the original without following any link.
    if (!copyResults(from, to, error))
        return false;
    return PrivateFiles::removeTree(fromWorkspace, relative, error);
}

QString OffloadStore::fileIdFor(const QString &callId, int occurrence)
{
    QString id;
    // Nearly every id is plain: decided without running the expression, which stays the rule
    // for everything else.
    static const QRegularExpression raw(u"^[A-Za-z0-9_-]{1,128}$"_s);
    if (isPlainFileId(callId) || raw.match(callId).hasMatch()) {
        id = callId;
        // "Call_A" and "call_a" are one file where names ignore case (macOS, Windows): an id with
        // capitals carries a digest of its exact spelling. The dot never occurs in a raw id.
        if (std::any_of(callId.cbegin(), callId.cend(), [](QChar c) { return c.unicode() >= u'A' && c.unicode() <= u'Z'; })) {
            const QByteArray digest = QCryptographicHash::hash(callId.toUtf8(), QCryptographicHash::Sha256).toHex();
            id += u'.' + QString::fromLatin1(digest.left(12));
        }
    } else {
        const QByteArray digest = QCryptographicHash::hash(callId.toUtf8(), QCryptographicHash::Sha256).toHex();
        id = u"h."_s + QString::fromLatin1(digest);
    }
    // A later result with the same call id (servers that number calls per response, imports) has
    // a file of its own: ".2", ".3", ... after the id.
    if (occurrence > 0)
        id += u'.' + QString::number(occurrence + 1);
    return id;
}

QString OffloadStore::relativePathFor(const QString &callId, int occurrence) const
{
    if (m_relativeDir.isEmpty())
        return {};
    return m_relativeDir + u'/' + fileIdFor(callId, occurrence) + u".txt"_s;
}

QString OffloadStore::absolutePathFor(const QString &callId, int occurrence) const
{
    const QString relative = relativePathFor(callId, occurrence);
    return relative.isEmpty() || m_workspace.isEmpty() ? QString() : QDir(m_workspace).filePath(relative);
}

int OffloadStore::resultsBefore(const QList<Message> &history, qsizetype end, const QString &callId)
{
    int n = 0;
    end = std::min(end, history.size());
    for (qsizetype i = 0; i < end; ++i) {
        const QString &id = history[i].toolCallId;
        if (id.size() == callId.size() && id == callId)
            ++n;
    }
    return n;
}

int OffloadStore::occurrenceOf(const QList<Message> &history, qsizetype index)
{
    if (index < 0 || index >= history.size())
        return 0;
    return resultsBefore(history, index, history[index].toolCallId);
}

bool OffloadStore::shrinks(const Message &message, int previewLines, int occurrence) const
{
    OffloadEntry entry;
    entry.relativePath = relativePathFor(message.toolCallId, occurrence);
    entry.bytes = utf8ByteCount(message.content);
    entry.lines = lineCount(message.content);
    qint64 bytes = 0;
    placeholderText(entry, message.content, previewLines, &bytes);
    return bytes < entry.bytes;
}

QString OffloadStore::sessionDir() const
{
    if (!Paths::isSafePathComponent(m_sessionId) || m_workspace.isEmpty())
        return {};
    return Paths::offloadDir(m_workspace, m_sessionId);
}

bool OffloadStore::isPlaceholder(const QString &content)
{
    return content.startsWith(u"[offloaded: ");
}

QString OffloadStore::placeholderText(const OffloadEntry &entry, QStringView content, int previewLines,
                                      qint64 *utf8Bytes)
{
    static constexpr QStringView kOpen = u"[offloaded: ";
    static constexpr QStringView kPathEnd = u" | ";
    static constexpr QStringView kLinesEnd = u" lines, ";
    static constexpr QStringView kBytesEnd = u" bytes]\nPreview (first ";
    static constexpr QStringView kShownEnd = u" lines):\n";
    static constexpr QStringView kFooter = u"... full output saved; read it with read_file(path, offset, limit)";
    constexpr qint64 kEllipsisBytes = 3; // U+2026 in UTF-8

    const int shown = std::clamp(previewLines, 0, entry.lines);
    // The preview lines: the first `shown` parts of content.split('\n'), each cut. Measured first,
    // so the text is allocated once at its final size.
    struct Line
    {
        QStringView text;
        bool cut;
    };
    QVarLengthArray<Line, 32> lines;
    const qsizetype asciiSize = kOpen.size() + kPathEnd.size() + numberLength(entry.lines) + kLinesEnd.size()
        + numberLength(entry.bytes) + kBytesEnd.size() + numberLength(shown) + kShownEnd.size() + kFooter.size();
    qsizetype size = asciiSize + entry.relativePath.size();
    // Every part is counted on its own: no part ends with half of a surrogate pair whose other
    // half starts the next one (a cut never splits a pair; newlines and ASCII separate the rest).
    qint64 bytes = asciiSize + (utf8Bytes ? utf8ByteCount(entry.relativePath) : 0);
    qsizetype pos = 0;
    while (lines.size() < shown) {
        bool ascii = false;
        // The last line shown is not read past its cut: a result of one huge line (minified JSON,
        // a long log line) is not scanned to its end. Two units more than the cut tell a line
        // that is cut from one that only ends in "\r".
        const bool last = lines.size() + 1 == shown;
        const QStringView scanned = last ? content.first(std::min(content.size(), pos + kPreviewLineChars + 2)) : content;
        const qsizetype end = lineEnd(scanned, pos, &ascii);
        Line line;
        line.text = cutPreviewLine(content.sliced(pos, end - pos), &line.cut);
        size += line.text.size() + (line.cut ? 2 : 1);
        if (utf8Bytes)
            bytes += (ascii ? line.text.size() : utf8ByteCount(line.text)) + (line.cut ? kEllipsisBytes + 1 : 1);
        lines.append(line);
        if (end == content.size())
            break; // that was the last part
        pos = end + 1;
    }

    QString text(size, Qt::Uninitialized);
    QChar *out = text.data();
    out = writeText(out, kOpen);
    out = writeText(out, entry.relativePath);
    out = writeText(out, kPathEnd);
    out = writeNumber(out, entry.lines);
    out = writeText(out, kLinesEnd);
    out = writeNumber(out, entry.bytes);
    out = writeText(out, kBytesEnd);
    out = writeNumber(out, shown);
    out = writeText(out, kShownEnd);
    for (const Line &line : std::as_const(lines)) {
        out = writeText(out, line.text);
        if (line.cut)
            *out++ = u'\u2026';
        *out++ = u'\n';
    }
    out = writeText(out, kFooter);
    Q_ASSERT(out == text.constData() + text.size());
    if (utf8Bytes)
        *utf8Bytes = bytes;
    return text;
}

bool OffloadStore::gate1Applies(const QString &toolName, qint64 bytes, qint64 threshold)
{
    if (bytes <= threshold)
        return false;
    // By what the tool does, not its exact name: Claude Code's Read and Edit, Codex's apply_patch
    // and OpenHands' str_replace_editor are exempt as read_file and edit_file are (issue #31).
    const ToolKind kind = toolKindOf(toolName);
    return kind != ToolKind::Read && kind != ToolKind::Edit;
}

OffloadStore::Result OffloadStore::offload(const Message &message, const QString &toolName, int gate, int previewLines,
                                           int occurrence) const
{
    Result result;
    auto refuse = [&result](const QString &why) {
        result.error = why;
        qCDebug(lcCompaction) << "offload refused:" << why;
        return result;
    };
    auto fail = [&result](const QString &why) {
        result.error = why;
        qCWarning(lcCompaction) << "offload failed:" << why;
        return result;
    };

    if (message.toolCallId.isEmpty())
        return refuse(QCoreApplication::translate("wl::OffloadStore", "not offloaded: the message has no tool call id"));
    if (isPlaceholder(message.content))
        return refuse(QCoreApplication::translate("wl::OffloadStore", "not offloaded: the result of call %1 is already a placeholder").arg(message.toolCallId));
    if (!Paths::isSafePathComponent(m_sessionId))
        return refuse(QCoreApplication::translate("wl::OffloadStore", "not offloaded: the session id \"%1\" cannot be used in a file name").arg(m_sessionId));
    const QFileInfo workspaceInfo(m_workspace);
    if (m_workspace.isEmpty() || !workspaceInfo.isDir())
        return fail(QCoreApplication::translate("wl::OffloadStore", "not offloaded: the workspace folder \"%1\" does not exist").arg(m_workspace));

    if (QString error; !prepareFolder(&error))
        return fail(error);

    const QString path = absolutePathFor(message.toolCallId, occurrence);
    const QFileInfo target(path);
    QByteArray bytes;
    QString previewText;
    if (target.exists() || target.isSymLink()) {
        if (!target.isFile() || target.isSymLink())
            return fail(QCoreApplication::translate("wl::OffloadStore", "not offloaded: %1 exists and is not a regular file").arg(path));
        QFile existing(path);
        if (!existing.open(QIODevice::ReadOnly))
            return fail(QCoreApplication::translate("wl::OffloadStore", "not offloaded: cannot read the existing file %1: %2").arg(path, existing.errorString()));
        bytes = existing.readAll();
        previewText = previewSource(bytes, std::max(previewLines, 0));
        result.reused = true;
    } else {
        bytes = message.content.toUtf8();
        if (QString error; !writePrivateFile(path, bytes, &error))
            return fail(error);
        previewText = message.content;
    }

    result.entry.callId = message.toolCallId;
    result.entry.toolName = toolName;
    result.entry.relativePath = relativePathFor(message.toolCallId, occurrence);
    result.entry.bytes = bytes.size();
    result.entry.lines = countLines(bytes);
    result.entry.gate = gate;
    result.entry.messageId = message.id;
    result.placeholder = placeholderText(result.entry, previewText, previewLines);
    result.ok = true;
    qCDebug(lcCompaction) << "offloaded" << message.toolCallId << "to" << result.entry.relativePath
                          << result.entry.bytes << "bytes" << (result.reused ? "(reused)" : "");
    return result;
}

OffloadEntry OffloadStore::wholeEntry(const QString &name, qint64 messageId, const QString &text) const
{
    OffloadEntry entry;
    entry.relativePath = relativePathFor(name);
    entry.bytes = utf8ByteCount(text);
    entry.lines = lineCount(text);
    entry.gate = OffloadEntry::kCutGate;
    entry.messageId = messageId;
    return entry;
}

OffloadEntry OffloadStore::wholeMessageEntry(const Message &message, const QString &text) const
{
    return wholeEntry(u"message-"_s + QString::number(message.id), message.id, text);
}

OffloadEntry OffloadStore::wholeContextEntry(qint64 coversUpTo, const QString &text) const
{
    // Named by its content too: another view of the same range (another policy, a retried request)
    // keeps a file of its own.
    const QByteArray hash = QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex().left(12);
    return wholeEntry(u"context-"_s + QString::number(coversUpTo) + u'-' + QString::fromLatin1(hash), coversUpTo, text);
}

OffloadStore::Result OffloadStore::saveWholeMessage(const Message &message, const QString &text) const
{
    return saveWhole(wholeMessageEntry(message, text), text);
}

OffloadStore::Result OffloadStore::saveWholeContext(qint64 coversUpTo, const QString &text) const
{
    return saveWhole(wholeContextEntry(coversUpTo, text), text);
}

OffloadStore::Result OffloadStore::saveWhole(const OffloadEntry &entry, const QString &text) const
{
    Result result;
    result.entry = entry;
    if (result.entry.relativePath.isEmpty() || m_workspace.isEmpty() || !QFileInfo(m_workspace).isDir()) {
        result.error = QCoreApplication::translate("wl::OffloadStore", "not cut: no workspace folder to keep the whole message %1 in")
                           .arg(entry.messageId);
        return result;
    }
    if (QString error; !prepareFolder(&error)) {
        result.error = error;
        return result;
    }
    const QString path = QDir(m_workspace).filePath(result.entry.relativePath);
    const QFileInfo target(path);
    if (target.exists() || target.isSymLink()) {
        // Written by an earlier cut of the same message: it holds the same whole.
        if (!target.isFile() || target.isSymLink()) {
            result.error = QCoreApplication::translate("wl::OffloadStore", "not cut: %1 exists and is not a regular file").arg(path);
            return result;
        }
        result.reused = true;
    } else if (QString error; !writePrivateFile(path, text.toUtf8(), &error)) {
        result.error = error;
        qCWarning(lcCompaction) << "cannot keep a cut message:" << error;
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace wl
