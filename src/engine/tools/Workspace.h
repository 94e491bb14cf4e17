#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QObject>
#include <QString>

#include <memory>

namespace wl {

class RootDirectory;

// The folder an agent session works in. Every path a tool touches goes through
// resolve(), which confines it to the root: relative paths are taken from the
// root, `..` and symbolic links are resolved (also for files that do not exist
// yet), and anything that ends up outside is refused with a message the model
// can read. resolve() is thread-safe; the read-back counters live in the
// Workspace's thread. resolve() only checks: tools then open the resolved relative
// path through directory(), which walks it from the root without following links,
// so a link swapped in after the check cannot redirect the read or write.
// The file system root and the home folder itself are refused as a root unless the
// user confirmed them (RootScope::AllowBroad): a model would work next to every key.
class Workspace : public QObject
{
    Q_OBJECT
public:
    enum class Access {
        Read,
        Write,  // also refuses Waterline's own folder (.waterline/), which holds the offloaded results
    };
    Q_ENUM(Access)

    enum class RootScope {
        Confined,    // refuses "/" and the home folder itself
        AllowBroad,  // the user confirmed such a root
    };
    Q_ENUM(RootScope)

    explicit Workspace(const QString &rootPath, QObject *parent = nullptr);
    Workspace(const QString &rootPath, RootScope scope, QObject *parent = nullptr);
    ~Workspace() override;

    bool isValid() const { return !m_root.isEmpty(); }  // the root exists, is a folder and is allowed
    QString root() const { return m_root; }              // canonical, no trailing slash
    QString error() const { return m_error; }            // why the workspace is not valid

    // Whether `path` is the file system root or the home folder itself (after resolving links).
    static bool isBroadRoot(const QString &path);

    // The root held open, for opening resolved paths without following links. Shared, so a
    // tool's worker thread can keep it past the Workspace.
    std::shared_ptr<const RootDirectory> directory() const { return m_directory; }

    struct Resolved
    {
        bool ok = false;
        QString absolutePath;   // canonical for the part that exists
        QString relativePath;   // relative to the root ("." for the root itself)
        QString error;
    };
    Resolved resolve(const QString &path, Access access = Access::Read) const;

    // Whether an absolute path lies inside the root (no symlink resolution; pass resolved paths).
    bool contains(const QString &absolutePath) const;
    QString relativePath(const QString &absolutePath) const;

    // ".waterline/tool_results/..." relative paths: offloaded tool results.
    static bool isOffloadPath(const QString &relativePath);

    // Called by read_file after a successful read; counts reads of offloaded results.
    void noteRead(const QString &relativePath);
    int offloadReadCount(const QString &relativePath) const { return m_offloadReads.value(relativePath); }
    QHash<QString, int> offloadReadCounts() const { return m_offloadReads; }

Q_SIGNALS:
    // An offloaded result was read back by the agent; `count` is the total for that file.
    void offloadReadBack(const QString &relativePath, int count);

private:
    QString m_root;
    QString m_error;
    std::shared_ptr<const RootDirectory> m_directory;
    QHash<QString, int> m_offloadReads;
};

} // namespace wl
