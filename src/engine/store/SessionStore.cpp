// SessionStore: opening the database, each thread's connection, and the sessions themselves. The
// other members live by concept in SessionStore<Concept>.cpp (steps, overlays, pins, transfer)
// and RequestContexts.cpp; the row conversions they share in StoreRows.
#include "SessionStore.h"

#include "LoggingCategories.h"
#include "Migrations.h"
#include "ImportClaim.h"
#include "Paths.h"
#include "PrivateFiles.h"
#include "SecretFilter.h"
#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"
#include "StoreRows.h"

#include <QCoreApplication>
#include <QFile>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QThread>
#include <QUuid>

#include <atomic>
#include <unordered_map>

using namespace Qt::StringLiterals;

namespace wl {

using namespace storerows;

namespace {

// Each open() gets a new serial, so a connection left in another thread by an earlier open()
// (or an earlier store) is never picked up again.
std::atomic<quint64> g_nextSerial{1};

// The connections this thread opened, by store serial. Destroyed when the thread ends, in that
// thread, which is what Qt requires of a QSqlDatabase.
struct ThreadConnections
{
    std::unordered_map<quint64, std::unique_ptr<SqlConnection>> byStore;
};
thread_local ThreadConnections t_connections;

} // namespace

struct SessionStore::Private
{
    QString path;
    quint64 serial = 0; // 0 while closed
};

SessionStore::SessionStore()
    : d(std::make_unique<Private>())
{
}

SessionStore::~SessionStore()
{
    close();
}

SqlConnection *SessionStore::connection(QString *error)
{
    if (!d->serial) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "no session database is open"));
        return nullptr;
    }
    auto &map = t_connections.byStore;
    if (auto it = map.find(d->serial); it != map.end())
        return it->second.get();
    const QString name = u"waterline-store-%1-thread-%2"_s.arg(d->serial).arg(
        quintptr(QThread::currentThreadId()), 0, 16);
    auto connection = std::make_unique<SqlConnection>(name, d->path);
    QString why;
    if (!connection->open(&why)) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot open %1: %2").arg(d->path, why));
        return nullptr;
    }
    qCDebug(lcStore) << "opened connection" << name;
    return map.emplace(d->serial, std::move(connection)).first->second.get();
}

void SessionStore::releaseThreadConnection()
{
    if (d->serial)
        t_connections.byStore.erase(d->serial);
}

bool SessionStore::open(const QString &path, QString *error)
{
    close();
    if (path.isEmpty())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "no database path given"));
    const QFileInfo info(path);
    if (info.exists() && !info.isFile())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "%1 is not a file").arg(path));
    // Only the user may read the sessions: folders we create are 0700 and a new database file
    // is 0600 before SQLite opens it (its -wal and -shm files take the database file's mode).
    QString folderError;
    if (!PrivateFiles::ensureFolder(info.absolutePath(), &folderError))
        return setError(error, folderError);
    if (!info.exists() && !PrivateFiles::ensureFile(path, &folderError))
        return setError(error, folderError);

    d->path = path;
    d->serial = g_nextSerial.fetch_add(1);
    auto fail = [&](const QString &text) {
        close();
        return setError(error, text);
    };

    SqlConnection *c = connection(error);
    if (!c) {
        d->serial = 0;
        return false;
    }

    // Everything up to the journal mode only reads, so a file we refuse is left as it was. The
    // version, the objects and the application id are read in one statement, so from one
    // snapshot: another process may be creating the file, and a version read before its first
    // migration with a table count read after it would make a new file look foreign.
    qint64 version = -1;
    qint64 objects = 0;
    qint64 applicationId = 0;
    {
        SqlQuery probe(*c, u"SELECT (SELECT user_version FROM pragma_user_version), (SELECT count(*) FROM sqlite_master), "
                           "(SELECT application_id FROM pragma_application_id)"_s);
        if (!probe.exec() || !probe.next())
            return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot be read: %2").arg(path, probe.error()));
        version = probe.int64(0);
        objects = probe.int64(1);
        applicationId = probe.int64(2);
    }
    if (version > Migrations::latestVersion())
        return fail(QCoreApplication::translate("wl::SessionStore", "this database was written by a newer Waterline (schema %1); this version reads up to %2")
                        .arg(version)
                        .arg(Migrations::latestVersion()));
    if (version < 0 || (version == 0 && objects > 0) || (version > 0 && applicationId != Migrations::kApplicationId))
        return fail(QCoreApplication::translate("wl::SessionStore", "%1 is not a Waterline session database").arg(path));

    // SQLite does not wait for other connections while it switches a file to write-ahead
    // logging (another process creating it at the same moment holds it): try again for as long
    // as a writer waits for another, then say why.
    QString journalMode;
    QString journalError;
    QElapsedTimer waited;
    waited.start();
    for (;;) {
        SqlQuery journal(*c, u"PRAGMA journal_mode = WAL"_s);
        if (journal.exec() && journal.next()) {
            journalMode = journal.text(0);
            break;
        }
        journalError = journal.error();
        if (waited.elapsed() >= SqlConnection::kBusyTimeoutMs)
            break;
        QThread::msleep(20);
    }
    if (journalMode.isEmpty())
        return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot be opened for writing: %2").arg(path, journalError));
    if (journalMode.compare(u"wal", Qt::CaseInsensitive) != 0)
        return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot use write-ahead logging (journal mode %2)").arg(path, journalMode));

    QString why;
    if (!Migrations::migrate(*c, Migrations::latestVersion(), &why))
        return fail(QCoreApplication::translate("wl::SessionStore", "%1 cannot be upgraded: %2").arg(path, why));
    // A database (and its WAL) created by an older Waterline may be readable by others.
    for (const QString &file : QStringList{path, path + u"-wal"_s, path + u"-shm"_s})
        if (!PrivateFiles::restrictFile(file))
            qCWarning(lcStore) << "cannot make" << file << "private";
    qCInfo(lcStore) << "session database open:" << path << "schema" << Migrations::latestVersion();
    return true;
}

void SessionStore::close()
{
    if (d->serial)
        t_connections.byStore.erase(d->serial);
    d->serial = 0;
    d->path.clear();
}

bool SessionStore::isOpen() const
{
    return d->serial != 0;
}

QString SessionStore::path() const
{
    return d->path;
}

QStringList SessionStore::integrityProblems(QString *error)
{
    QStringList problems;
    SqlConnection *c = connection(error);
    if (!c)
        return problems;
    SqlQuery q(*c, u"PRAGMA quick_check"_s);
    if (!q.exec()) {
        problems << q.error();
        setError(error, q.error());
        return problems;
    }
    while (q.next()) {
        if (q.text(0) != u"ok")
            problems << q.text(0);
    }
    if (!q.error().isEmpty())
        problems << q.error();
    return problems;
}

int SessionStore::schemaVersion(QString *error)
{
    SqlConnection *c = connection(error);
    return c ? Migrations::schemaVersion(*c, error) : -1;
}

// --- sessions ------------------------------------------------------------------------------

std::optional<SessionInfo> SessionStore::createSession(const SessionInfo &fields, QString *error)
{
    return insertSession(QUuid::createUuid().toString(QUuid::WithoutBraces), fields, error);
}

std::optional<SessionInfo> SessionStore::insertSession(const QString &id, const SessionInfo &fields, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QDateTime created = fields.createdAt.isValid() ? fields.createdAt : now;
    SqlQuery q(*c, u"INSERT INTO sessions (id, title, workspace, created_at, updated_at, policy, provider_name, "
                   "provider_profile, summarizer_profile, approval_policy, system_prompt, tool_schemas, read_only, "
                   "import_claim) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"_s);
    q.bind(id).bind(fields.title).bind(fields.workspace).bind(toMs(created));
    q.bind(toMs(fields.updatedAt.isValid() ? fields.updatedAt : created));
    q.bind(jsonText(fields.policy)).bind(fields.providerName);
    q.bind(jsonText(SecretFilter::withoutSecrets(fields.providerProfile)));
    q.bind(jsonText(SecretFilter::withoutSecrets(fields.summarizerProfile))).bind(fields.approvalPolicy);
    q.bind(fields.systemPrompt).bind(QString::fromUtf8(QJsonDocument(fields.toolSchemas).toJson(QJsonDocument::Compact)));
    q.bind(fields.readOnly ? 1 : 0);
    // An import names the process that writes it until it is complete (schema 10).
    if (fields.importing)
        q.bind(ImportClaim::mine());
    else
        q.bindNull();
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot create a session: %1").arg(q.error()));
        return std::nullopt;
    }
    return session(id, error);
}

QList<SessionInfo> SessionStore::listSessions(QString *error)
{
    QList<SessionInfo> out;
    SqlConnection *c = connection(error);
    if (!c)
        return out;
    // An import still being written (or never finished) is not a session to show (schema 10).
    SqlQuery q(*c, u"SELECT "_s + kSessionColumns + u" FROM sessions s WHERE s.import_claim IS NULL "
                   "ORDER BY last_activity_at DESC, s.created_at DESC"_s);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot list sessions: %1").arg(q.error()));
        return out;
    }
    while (q.next())
        out.append(readSession(q));
    return out;
}

std::optional<SessionInfo> SessionStore::session(const QString &id, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlQuery q(*c, u"SELECT "_s + kSessionColumns + u" FROM sessions s WHERE s.id = ?"_s);
    q.bind(id);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot read session %1: %2").arg(id, q.error()));
        return std::nullopt;
    }
    if (!q.next()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(id));
        return std::nullopt;
    }
    return readSession(q);
}

namespace {
bool updateSession(SqlConnection *c, const QString &sql, const QVariant &value, const QString &id, QString *error)
{
    if (!c)
        return false;
    SqlQuery q(*c, sql);
    q.bind(value).bind(QDateTime::currentMSecsSinceEpoch()).bind(id);
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot update session %1: %2").arg(id, q.error()));
    if (q.rowsAffected() != 1)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(id));
    return true;
}
} // namespace

bool SessionStore::renameSession(const QString &id, const QString &title, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?"_s, title, id,
                         error);
}

bool SessionStore::setSessionCreatedAt(const QString &id, const QDateTime &createdAt, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET created_at = ?, updated_at = ? WHERE id = ?"_s,
                         toMs(createdAt), id, error);
}

bool SessionStore::setSessionPolicy(const QString &id, const QJsonObject &policy, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET policy = ?, updated_at = ? WHERE id = ?"_s,
                         jsonText(policy), id, error);
}

bool SessionStore::setProviderProfile(const QString &id, const QString &name, const QJsonObject &profile,
                                      QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlTransaction transaction(*c);
    if (!updateSession(c, u"UPDATE sessions SET provider_name = ?, updated_at = ? WHERE id = ?"_s, name, id, error)
        || !updateSession(c, u"UPDATE sessions SET provider_profile = ?, updated_at = ? WHERE id = ?"_s,
                          jsonText(SecretFilter::withoutSecrets(profile)), id, error))
        return false;
    return transaction.commit(error);
}

bool SessionStore::setSummarizerProfile(const QString &id, const QJsonObject &profile, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET summarizer_profile = ?, updated_at = ? WHERE id = ?"_s,
                         jsonText(SecretFilter::withoutSecrets(profile)), id, error);
}

bool SessionStore::setApprovalPolicy(const QString &id, const QString &policy, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET approval_policy = ?, updated_at = ? WHERE id = ?"_s,
                         policy, id, error);
}

bool SessionStore::setSystemPrompt(const QString &id, const QString &systemPrompt, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET system_prompt = ?, updated_at = ? WHERE id = ?"_s,
                         systemPrompt, id, error);
}

bool SessionStore::setToolSchemas(const QString &id, const QJsonArray &schemas, QString *error)
{
    return updateSession(connection(error), u"UPDATE sessions SET tool_schemas = ?, updated_at = ? WHERE id = ?"_s,
                         QString::fromUtf8(QJsonDocument(schemas).toJson(QJsonDocument::Compact)),
                         id, error);
}

bool SessionStore::deleteSession(const QString &id, QString *error)
{
    if (!Paths::isSafePathComponent(id))
        return setError(error, QCoreApplication::translate("wl::SessionStore", "refusing to delete \"%1\": not a session id").arg(id));
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    QString workspace;
    {
        SqlTransaction transaction(*c);
        if (!transaction.isActive())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, transaction.error()));
        SqlQuery find(*c, u"SELECT workspace FROM sessions WHERE id = ?"_s);
        find.bind(id);
        if (!find.exec())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, find.error()));
        if (!find.next())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "there is no session %1").arg(id));
        workspace = find.text(0);
        SqlQuery remove(*c, u"DELETE FROM sessions WHERE id = ?"_s);
        remove.bind(id);
        if (!remove.exec())
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, remove.error()));
        QString why;
        if (!transaction.commit(&why))
            return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot delete session %1: %2").arg(id, why));
    }
    // The rows are gone; the files follow. A failure here is reported, the rest still removed.
    bool ok = true;
    QStringList problems;
    if (!workspace.isEmpty()) {
        QString why;
        // Walked from the workspace with O_NOFOLLOW: a link at .waterline, tool_results or the
        // session's folder never takes the removal elsewhere.
        if (!PrivateFiles::removeTree(workspace, Paths::offloadRelativeDir(id), &why)) {
            ok = false;
            problems << why;
        }
    }
    const QString audit = Paths::auditFile(id);
    if (QFileInfo::exists(audit) && !QFile::remove(audit)) {
        ok = false;
        problems << QCoreApplication::translate("wl::SessionStore", "cannot remove %1").arg(audit);
    }
    if (!ok)
        setError(error, problems.join(u"; "));
    qCInfo(lcStore) << "deleted session" << id;
    return ok;
}

} // namespace wl
