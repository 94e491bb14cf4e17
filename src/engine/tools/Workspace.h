#pragma once

#include <QCoreApplication>
#include <QHash>
#include <QObject>
#include <QString>

namespace wl {

// The folder an agent session works in. Every path a tool touches goes through
// resolve(), which confines it to the root: relative paths are taken from the
// root, `..` and symbolic links are resolved (also for files that do not exist
// yet), and anything that ends up outside is refused with a message the model
// can read. resolve() is thread-safe; the read-back counters live in the
// Workspace's thread.
class Workspace : public QObject
{
    Q_OBJECT
public:
    enum class Access {
        Read,
        Write,  // also refuses Waterline's own folder (.waterline/), which holds the offloaded results
    };
    Q_ENUM(Access)

    explicit Workspace(const QString &rootPath, QObject *parent = nullptr);

    bool isValid() const { return !m_root.isEmpty(); }  // the root exists and is a folder
    QString root() const { return m_root; }              // canonical, no trailing slash

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
    QHash<QString, int> m_offloadReads;
};

} // namespace wl
