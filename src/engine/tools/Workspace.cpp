#include "tools/Workspace.h"

#include "LoggingCategories.h"
#include "tools/RootDirectory.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr int maxSymlinkHops = 40;  // as the kernel's ELOOP limit
const QString privateFolder = u".waterline"_s;

// The target text of a symbolic link, as stored (not resolved).
QString readLink(const QString &path)
{
    const QByteArray encoded = QFile::encodeName(path);
    QByteArray buffer(4096, Qt::Uninitialized);
    const ssize_t length = ::readlink(encoded.constData(), buffer.data(), size_t(buffer.size()));
    if (length < 0)
        return {};
    buffer.truncate(length);
    return QFile::decodeName(buffer);
}

QString parentOf(const QString &absolute)
{
    const qsizetype slash = absolute.lastIndexOf(u'/');
    return slash <= 0 ? u"/"_s : absolute.left(slash);
}

QString join(const QString &directory, const QString &name)
{
    if (directory == u"/")
        return u'/' + name;
    return directory + u'/' + name;
}

} // namespace

Workspace::Workspace(const QString &rootPath, QObject *parent)
    : Workspace(rootPath, RootScope::Confined, parent)
{
}

Workspace::Workspace(const QString &rootPath, RootScope scope, QObject *parent)
    : QObject(parent)
{
    const QFileInfo info(rootPath);
    const QString canonical = info.isDir() ? info.canonicalFilePath() : QString();
    if (canonical.isEmpty()) {
        m_error = u"the workspace folder %1 does not exist or is not a folder"_s.arg(rootPath);
    } else if (scope == RootScope::Confined && isBroadRoot(canonical)) {
        m_error = u"the workspace %1 is the whole file system or the home folder; it needs the user's confirmation"_s.arg(
            canonical);
    } else {
        auto directory = std::make_shared<RootDirectory>(canonical);
        if (directory->isOpen()) {
            m_root = canonical;
            m_directory = std::move(directory);
        } else {
            m_error = u"cannot open the workspace folder %1"_s.arg(canonical);
        }
    }
    if (m_root.isEmpty() && canonical.isEmpty())
        qCWarning(lcTools) << "workspace root is not a folder:" << rootPath;
    else if (m_root.isEmpty())
        qCWarning(lcTools) << "workspace root refused:" << m_error;
}

Workspace::~Workspace() = default;

bool Workspace::isBroadRoot(const QString &path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    if (canonical.isEmpty())
        return false;
    if (canonical == u"/")
        return true;
    const QString home = QFileInfo(QDir::homePath()).canonicalFilePath();
    return !home.isEmpty() && canonical == home;
}

bool Workspace::contains(const QString &absolutePath) const
{
    if (m_root.isEmpty())
        return false;
    if (m_root == u"/")
        return absolutePath.startsWith(u'/');
    return absolutePath == m_root || absolutePath.startsWith(m_root + u'/');
}

QString Workspace::relativePath(const QString &absolutePath) const
{
    if (absolutePath == m_root)
        return u"."_s;
    return m_root == u"/" ? absolutePath.mid(1) : absolutePath.mid(m_root.size() + 1);
}

bool Workspace::isOffloadPath(const QString &relativePath)
{
    return relativePath.startsWith(u".waterline/tool_results/"_s);
}

Workspace::Resolved Workspace::resolve(const QString &path, Access access) const
{
    Resolved result;
    if (m_root.isEmpty()) {
        result.error = m_error.isEmpty() ? u"the workspace folder does not exist"_s : m_error;
        return result;
    }
    if (path.trimmed().isEmpty()) {
        result.error = u"the path is empty"_s;
        return result;
    }
    if (path.contains(QChar(0))) {
        result.error = u"the path contains a NUL character"_s;
        return result;
    }
    // A newline or other control character in a name can forge lines in tool output and logs.
    for (const QChar c : path) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f || (c.unicode() >= 0x80 && c.unicode() < 0xa0)) {
            result.error = u"the path contains a control character (U+%1); such names are refused"_s.arg(
                int(c.unicode()), 4, 16, QChar(u'0'));
            return result;
        }
    }

    // Walk the path one component at a time, as the kernel would, so `..` after a
    // symbolic link goes to the link target's parent and links inside links resolve.
    QStringList pending = path.split(u'/', Qt::SkipEmptyParts);
    QString current = QDir::isAbsolutePath(path) ? u"/"_s : m_root;
    bool viaSymlink = false;
    int hops = 0;
    while (!pending.isEmpty()) {
        const QString component = pending.takeFirst();
        if (component == u".")
            continue;
        if (component == u"..") {
            current = parentOf(current);
            continue;
        }
        const QString next = join(current, component);
        // Every component is checked, even after a missing one: "missing/../link" must still see the link.
        const QFileInfo info(next);
        if (info.isSymLink()) {
            if (++hops > maxSymlinkHops) {
                result.error = u"path '%1' has too many levels of symbolic links"_s.arg(path);
                return result;
            }
            viaSymlink = true;
            const QString target = readLink(next);
            if (target.isEmpty()) {
                result.error = u"cannot read the symbolic link '%1'"_s.arg(next);
                return result;
            }
            pending = target.split(u'/', Qt::SkipEmptyParts) + pending;
            if (target.startsWith(u'/'))
                current = u"/"_s;
            continue;
        }
        current = next;
    }

    if (!contains(current)) {
        if (viaSymlink)
            result.error = u"path '%1' resolves to %2 through a symbolic link, which is outside the workspace %3"_s
                               .arg(path, current, m_root);
        else
            result.error = u"path '%1' is outside the workspace %2"_s.arg(path, m_root);
        return result;
    }
    result.absolutePath = current;
    result.relativePath = relativePath(current);
    if (access == Access::Write
        && (result.relativePath == privateFolder || result.relativePath.startsWith(privateFolder + u'/'))) {
        result.error = u"path '%1' is inside Waterline's own folder %2, which tools may read but not change"_s
                           .arg(path, privateFolder);
        result.absolutePath.clear();
        return result;
    }
    result.ok = true;
    return result;
}

void Workspace::noteRead(const QString &relativePath)
{
    if (!isOffloadPath(relativePath))
        return;
    const int count = ++m_offloadReads[relativePath];
    qCDebug(lcTools) << "offloaded result read back:" << relativePath << count;
    Q_EMIT offloadReadBack(relativePath, count);
}

} // namespace wl
