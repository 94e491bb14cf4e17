#include "OffloadStore.h"

#include "LoggingCategories.h"
#include "Paths.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr qsizetype kPreviewLineChars = 500;
// A preview line never needs more than this many UTF-8 bytes (4 bytes per character at most).
constexpr qsizetype kPreviewLineBytes = kPreviewLineChars * 4 + 4;
constexpr QFile::Permissions kDirPermissions = QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner;
constexpr QFile::Permissions kFilePermissions = QFile::ReadOwner | QFile::WriteOwner;

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
    *cut = line.size() > kPreviewLineChars;
    if (!*cut)
        return line;
    qsizetype length = kPreviewLineChars;
    if (line[length - 1].isHighSurrogate())
        --length; // never split a surrogate pair
    return line.first(length);
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

} // namespace

OffloadStore::OffloadStore(const QString &workspaceDir, const QString &sessionId)
    : m_workspace(workspaceDir)
    , m_sessionId(sessionId)
{
}

QString OffloadStore::fileIdFor(const QString &callId)
{
    static const QRegularExpression raw(u"^[A-Za-z0-9_-]{1,128}$"_s);
    if (raw.match(callId).hasMatch())
        return callId;
    const QByteArray digest = QCryptographicHash::hash(callId.toUtf8(), QCryptographicHash::Sha256).toHex();
    return u"h."_s + QString::fromLatin1(digest);
}

QString OffloadStore::relativePathFor(const QString &callId) const
{
    if (!Paths::isSafePathComponent(m_sessionId))
        return {};
    return Paths::offloadRelativeDir(m_sessionId) + u'/' + fileIdFor(callId) + u".txt"_s;
}

QString OffloadStore::absolutePathFor(const QString &callId) const
{
    const QString relative = relativePathFor(callId);
    return relative.isEmpty() || m_workspace.isEmpty() ? QString() : QDir(m_workspace).filePath(relative);
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

QString OffloadStore::placeholderText(const OffloadEntry &entry, const QString &content, int previewLines)
{
    const int shown = std::clamp(previewLines, 0, entry.lines);
    QString text = u"[offloaded: "_s + entry.relativePath + u" | "_s + QString::number(entry.lines) + u" lines, "_s
        + QString::number(entry.bytes) + u" bytes]\nPreview (first "_s + QString::number(shown) + u" lines):\n"_s;
    int taken = 0;
    for (QStringView line : QStringView(content).tokenize(u'\n')) {
        if (taken == shown)
            break;
        bool cut = false;
        text += cutPreviewLine(line, &cut);
        if (cut)
            text += u'\u2026';
        text += u'\n';
        ++taken;
    }
    text += u"... full output saved; read it with read_file(path, offset, limit)"_s;
    return text;
}

bool OffloadStore::gate1Applies(const QString &toolName, qint64 bytes, qint64 threshold)
{
    static constexpr QStringView exempt[] = {u"read_file", u"write_file", u"edit_file"};
    if (bytes <= threshold)
        return false;
    return std::none_of(std::begin(exempt), std::end(exempt), [&](QStringView name) { return toolName == name; });
}

OffloadStore::Result OffloadStore::offload(const Message &message, const QString &toolName, int gate, int previewLines) const
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

    // Create every level under the workspace ourselves, so each one gets 0700, and stop at the
    // first one that resolves outside the workspace (a symlinked .waterline must not carry results away).
    const QDir workspace(m_workspace);
    const QString canonicalWorkspace = workspaceInfo.canonicalFilePath();
    for (const QString &level : {u".waterline"_s, u".waterline/tool_results"_s, Paths::offloadRelativeDir(m_sessionId)}) {
        const QString dir = workspace.filePath(level);
        QString error;
        if (!ensureDir(dir, &error))
            return fail(error);
        if (!QFileInfo(dir).canonicalFilePath().startsWith(canonicalWorkspace + u'/'))
            return fail(QCoreApplication::translate("wl::OffloadStore", "not offloaded: the offload folder %1 lies outside the workspace").arg(dir));
    }

    const QString path = absolutePathFor(message.toolCallId);
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
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            return fail(QCoreApplication::translate("wl::OffloadStore", "not offloaded: cannot write %1: %2").arg(path, file.errorString()));
        // Applied to the temporary file, so the result is never readable by others, not even briefly.
        file.setPermissions(kFilePermissions);
        if (file.write(bytes) != bytes.size() || !file.commit())
            return fail(QCoreApplication::translate("wl::OffloadStore", "not offloaded: cannot write %1: %2").arg(path, file.errorString()));
        previewText = message.content;
    }

    result.entry.callId = message.toolCallId;
    result.entry.toolName = toolName;
    result.entry.relativePath = relativePathFor(message.toolCallId);
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

} // namespace wl
