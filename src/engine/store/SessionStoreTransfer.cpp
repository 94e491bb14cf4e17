// SessionStore: sessions that come from elsewhere or go elsewhere: a transcript import's requests
// and source, continuing an import, and export / import of the JSONL format (SessionExport).
#include "SessionStore.h"

#include "LoggingCategories.h"
#include "Paths.h"
#include "PrivateFiles.h"
#include "SecretFilter.h"
#include "SessionExport.h"
#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"
#include "StoreRows.h"
#include "compaction/OffloadStore.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QHash>
#include <QThread>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

using namespace storerows;

// --- imports -------------------------------------------------------------------------------

std::optional<QList<qint64>> SessionStore::appendRequests(const QString &sessionId, const QList<RequestRecord> &requests,
                                                          const QList<qint64> &producedBy, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    auto fail = [&](const QString &text) -> std::optional<QList<qint64>> {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot add requests to session %1: %2").arg(sessionId, text));
        return std::nullopt;
    };
    SqlTransaction transaction(*c);
    if (!transaction.isActive())
        return fail(transaction.error());
    int nextIndex = 0;
    {
        SqlQuery q(*c, u"SELECT (SELECT coalesce(max(idx) + 1, 0) FROM requests WHERE session_id = ?) "
                       "FROM sessions WHERE id = ?"_s);
        q.bind(sessionId).bind(sessionId);
        if (!q.exec())
            return fail(q.error());
        if (!q.next())
            return fail(QCoreApplication::translate("wl::SessionStore", "there is no such session"));
        nextIndex = int(q.int64(0));
    }
    QList<qint64> rows;
    rows.reserve(requests.size());
    QString why;
    for (qsizetype i = 0; i < requests.size(); ++i) {
        const RequestRecord &r = requests[i];
        const int index = r.index >= 0 ? r.index : nextIndex;
        nextIndex = std::max(nextIndex, index + 1);
        const auto row = insertRequest(*c, sessionId, r, index, r.viewCheckpointId, r.viewMessageIds, &why);
        if (!row)
            return fail(why);
        rows.append(*row);
        const qint64 produced = producedBy.value(i);
        if (produced > 0) {
            SqlQuery q(*c, u"UPDATE messages SET request_id = ? WHERE id = ? AND session_id = ?"_s);
            q.bind(*row).bind(produced).bind(sessionId);
            if (!q.exec())
                return fail(q.error());
            if (q.rowsAffected() != 1)
                return fail(QCoreApplication::translate("wl::SessionStore", "message %1 is not in this session").arg(produced));
        }
    }
    if (!transaction.commit(&why))
        return fail(why);
    return rows;
}

bool SessionStore::setSessionSource(const QString &sessionId, const SessionSource &source, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlQuery q(*c, u"INSERT OR REPLACE INTO session_sources (session_id, format, source_path, imported_at, details) "
                   "VALUES (?, ?, ?, ?, ?)"_s);
    q.bind(sessionId).bind(source.format).bind(source.sourcePath);
    q.bind(toMs(source.importedAt.isValid() ? source.importedAt : QDateTime::currentDateTimeUtc()));
    q.bind(jsonText(source.details));
    if (!q.exec())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot store the source of session %1: %2").arg(sessionId, q.error()));
    return true;
}

std::optional<SessionSource> SessionStore::sessionSource(const QString &sessionId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    SqlQuery q(*c, u"SELECT format, source_path, imported_at, details FROM session_sources WHERE session_id = ?"_s);
    q.bind(sessionId);
    if (!q.exec()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot read the source of session %1: %2").arg(sessionId, q.error()));
        return std::nullopt;
    }
    if (!q.next())
        return std::nullopt;
    SessionSource source;
    source.format = q.text(0);
    source.sourcePath = q.text(1);
    source.importedAt = fromMs(q.value(2));
    source.details = jsonObject(q.text(3));
    return source;
}

// --- export / import -----------------------------------------------------------------------

bool SessionStore::exportSession(const QString &sessionId, const QString &path, QString *error)
{
    SessionDocument doc;
    QString why;
    const auto info = session(sessionId, &why);
    if (!info)
        return setError(error, why);
    doc.session = *info;
    // One read transaction: the parts of the file agree with each other even while a step is appended.
    SqlConnection *c = connection(error);
    if (!c || !c->execute(u"BEGIN"_s, &why))
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot export session %1: %2").arg(sessionId, why));
    why.clear();
    doc.messages = history(sessionId, &why);
    if (why.isEmpty())
        doc.requests = requests(sessionId, &why);
    ContextOverlays overlays;
    if (why.isEmpty())
        overlays = this->overlays(sessionId, &why);
    if (why.isEmpty())
        doc.records = records(sessionId, &why);
    c->execute(u"COMMIT"_s, nullptr);
    if (!why.isEmpty())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot export session %1: %2").arg(sessionId, why));
    doc.checkpoints = overlays.checkpoints;
    doc.offloads = overlays.offloads.values();
    std::sort(doc.offloads.begin(), doc.offloads.end(),
              [](const OffloadOverlay &a, const OffloadOverlay &b) { return a.id < b.id; });
    doc.pins = overlays.pins;
    return SessionExport::write(doc, path, error);
}

QString SessionStore::importFolder(QString *error) const
{
    const QString databasePath = path();
    if (databasePath.isEmpty()) {
        setError(error, QCoreApplication::translate("wl::SessionStore", "no database is open"));
        return {};
    }
    const QString folder = QFileInfo(databasePath).absoluteDir().filePath(u"imported"_s);
    QString why;
    if (!PrivateFiles::ensureFolder(folder, &why)) {
        setError(error, why);
        return {};
    }
    return folder;
}

bool SessionStore::continueSession(const QString &id, const Continuation &choice, QString *error)
{
    const std::optional<SessionInfo> info = session(id, error);
    if (!info)
        return false;
    if (!info->readOnly)
        return setError(error, QCoreApplication::translate("wl::SessionStore", "session %1 is not an import waiting to be continued").arg(id));
    const QFileInfo folder(choice.workspace);
    if (choice.workspace.isEmpty() || !folder.isAbsolute() || !folder.isDir())
        return setError(error, QCoreApplication::translate("wl::SessionStore", "the workspace %1 is not a folder").arg(choice.workspace));
    const QString workspace = folder.canonicalFilePath();
    QString why;
    if (!OffloadStore::moveSessionFolder(info->workspace, workspace, id, &why))
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot continue session %1: %2").arg(id, why));
    SqlConnection *c = connection(error);
    if (!c)
        return false;
    SqlQuery q(*c, u"UPDATE sessions SET workspace = ?, provider_name = ?, provider_profile = ?, summarizer_profile = '{}', "
                   "approval_policy = '', system_prompt = ?, read_only = 0, updated_at = ? WHERE id = ? AND read_only = 1"_s);
    q.bind(workspace).bind(choice.providerName).bind(jsonText(SecretFilter::withoutSecrets(choice.providerProfile)));
    q.bind(choice.systemPrompt).bind(QDateTime::currentMSecsSinceEpoch()).bind(id);
    if (!q.exec() || q.rowsAffected() != 1) {
        // Put the results back where the stored workspace still points.
        QString back;
        if (!OffloadStore::moveSessionFolder(workspace, info->workspace, id, &back))
            qCWarning(lcStore) << "cannot move the offloaded results of" << id << "back:" << back;
        return setError(error, QCoreApplication::translate("wl::SessionStore", "cannot continue session %1: %2")
                                   .arg(id, q.error().isEmpty() ? QCoreApplication::translate("wl::SessionStore", "it changed meanwhile") : q.error()));
    }
    qCInfo(lcStore) << "continued imported session" << id << "in" << workspace;
    return true;
}

// importSession: the longest a batch holds the write lock, and the pause after it. The pause is
// longer than the 100 ms SQLite's busy handler sleeps between retries once it has waited a while.
constexpr qint64 kImportBatchMs = 500;
constexpr unsigned long kImportPauseMs = 110;

std::optional<QString> SessionStore::importSession(const QString &path, const QString &workspace, QString *error)
{
    // Someone else's file must not choose where the agent works, which server gets a key, or
    // what runs without asking: those come from the user, as for a new session.
    return importDocument(path, [&workspace](const SessionInfo &session) {
        SessionInfo fields = session;
        fields.workspace = workspace;
        fields.providerName.clear();
        fields.providerProfile = {};
        fields.summarizerProfile = {};
        fields.approvalPolicy.clear();
        fields.readOnly = true; // until the user continues it (continueSession)
        return fields;
    }, QString(), error);
}

bool SessionStore::adoptSession(const QString &exportPath, const SessionInfo &original, QString *error)
{
    if (!Paths::isSafePathComponent(original.id))
        return setError(error, QCoreApplication::translate("wl::SessionStore", "refusing to store \"%1\": not a session id").arg(original.id));
    // The fields come from the user's own database, not from the file.
    return importDocument(exportPath, [&original](const SessionInfo &) { return original; }, original.id, error).has_value();
}

std::optional<QString> SessionStore::importDocument(const QString &path, const std::function<SessionInfo(const SessionInfo &)> &fieldsOf,
                                                    const QString &wantedId, QString *error)
{
    SqlConnection *c = connection(error);
    if (!c)
        return std::nullopt;
    auto fail = [&](const QString &why) -> std::optional<QString> {
        setError(error, QCoreApplication::translate("wl::SessionStore", "cannot import %1: %2").arg(path, why));
        return std::nullopt;
    };

    // Batches of transactions: one transaction for a long import would hold the write lock for
    // all of it, and a second Waterline (or this one's GUI thread) would give up after its busy
    // timeout. Each batch ends after kImportBatchMs and the lock is left free for kImportPauseMs,
    // longer than SQLite's longest wait between retries, so a waiting writer gets its turn.
    // A failure part way removes what was already committed: an import is all or nothing.
    std::optional<SqlTransaction> transaction(std::in_place, *c);
    if (!transaction->isActive())
        return fail(transaction->error());
    QString why;
    QString id;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    bool committedSome = false;
    QElapsedTimer batch;
    batch.start();
    auto dropStarted = [&]() {
        transaction.reset();  // rolls back the open batch
        if (committedSome) {
            SqlQuery remove(*c, u"DELETE FROM sessions WHERE id = ?"_s);
            remove.bind(id);
            if (!remove.exec())
                qCWarning(lcStore) << "cannot remove the partly imported session" << id << remove.error();
        }
    };
    auto failAfterStart = [&](const QString &text) -> std::optional<QString> {
        dropStarted();
        return fail(text);
    };
    auto nextBatch = [&]() -> bool {
        if (batch.elapsed() < kImportBatchMs)
            return true;
        if (!transaction->commit(&why))
            return false;
        committedSome = true;
        transaction.reset();
        QThread::msleep(kImportPauseMs);
        transaction.emplace(*c);
        batch.restart();
        if (!transaction->isActive()) {
            why = transaction->error();
            return false;
        }
        return true;
    };

    // Messages are stored as they are read, so the file is never held whole; whatever fails
    // later (a damaged line, a missing end line) removes them again.
    QHash<qint64, qint64> messageIds; // document id -> row id
    QList<qint64> rowOfPosition;      // the row id of each message, in file order
    QString storeError;               // a failure of the store, not of the file
    SessionExport::Streaming streaming;
    streaming.session = [&](const SessionInfo &session, QString *) {
        SessionInfo fields = fieldsOf(session);
        // Not listed until the last batch commits (schema 10): a killed import is never shown.
        fields.importing = true;
        const auto created = wantedId.isEmpty() ? createSession(fields, &storeError) : insertSession(wantedId, fields, &storeError);
        if (created)
            id = created->id;
        return created.has_value();
    };
    streaming.message = [&](Message &&message, QString *) {
        const auto row = insertMessage(*c, id, messageIds.size(), message, 0, now, &storeError);
        if (!row)
            return false;
        messageIds.insert(message.id, *row);
        rowOfPosition.append(*row);
        if (!nextBatch()) {
            storeError = why;
            return false;
        }
        return true;
    };
    std::optional<SessionDocument> doc = SessionExport::read(path, streaming, &why);
    if (!doc) {
        if (!storeError.isEmpty())
            return id.isEmpty() ? fail(storeError) : failAfterStart(storeError);
        dropStarted();
        setError(error, why); // SessionExport names the file, the line and the field
        return std::nullopt;
    }
    QHash<qint64, qint64> checkpointIds;
    for (const Checkpoint &cp : doc->checkpoints) {
        const auto row = insertCheckpoint(*c, id, cp, messageIds.value(cp.coversFromMessageId),
                                          messageIds.value(cp.coversUpToMessageId), now, &why);
        if (!row)
            return failAfterStart(why);
        checkpointIds.insert(cp.id, *row);
    }
    for (const Pin &pin : doc->pins) {
        // Kept as the file has them: the budget is the importing user's to apply when they pin more.
        SqlQuery q(*c, u"INSERT INTO pins (session_id, kind, source, message_id, text, reason, created_at) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?)"_s);
        q.bind(id).bind(Pin::kindName(pin.kind)).bind(Pin::sourceName(pin.source));
        if (pin.kind != Pin::Kind::Note)
            q.bind(messageIds.value(pin.messageId));
        else
            q.bindNull();
        q.bind(pin.text).bind(pin.reason).bind(pin.createdAt.isValid() ? toMs(pin.createdAt) : now);
        if (!q.exec())
            return failAfterStart(q.error());
    }
    QHash<qint64, qint64> requestIds;
    for (const RequestRecord &r : doc->requests) {
        // The file's views name its messages by position + 1, ascending: each run maps to the
        // rows stored for it, one run again while the rows are consecutive.
        ViewIds view;
        for (const ViewIds::Range &run : r.viewMessageIds.ranges()) {
            const qsizetype from = qsizetype(run.first) - 1, to = qsizetype(run.last) - 1;
            if (from < 0 || to >= rowOfPosition.size())
                return failAfterStart(QCoreApplication::translate("wl::SessionStore", "request %1 names messages that are not in the file").arg(r.index));
            bool ascends = true;
            if (rowOfPosition[to] - rowOfPosition[from] == to - from)
                ascends = view.appendRange(rowOfPosition[from], rowOfPosition[to]);
            else
                for (qsizetype k = from; k <= to && ascends; ++k)
                    ascends = view.append(rowOfPosition[k]);
            if (!ascends)
                return failAfterStart(QCoreApplication::translate("wl::SessionStore", "the messages of request %1 were not stored in file order").arg(r.index));
        }
        const auto row = insertRequest(*c, id, r, r.index, checkpointIds.value(r.viewCheckpointId), view, &why);
        if (!row)
            return failAfterStart(why);
        requestIds.insert(r.id, *row);
        if (!nextBatch())
            return failAfterStart(why);
    }
    for (auto it = doc->streamedOrigins.cbegin(); it != doc->streamedOrigins.cend(); ++it) {
        SqlQuery q(*c, u"UPDATE messages SET request_id = ? WHERE id = ?"_s);
        q.bind(requestIds.value(it.value())).bind(messageIds.value(it.key()));
        if (!q.exec())
            return failAfterStart(q.error());
        if (!nextBatch())
            return failAfterStart(why);
    }
    // An offload path from the file is resolved inside this session's own offload folder: only
    // its file name is kept, and only a plain one ("../../.ssh/id_rsa" names nothing here).
    auto ownPath = [&](const QString &exported, QString *resolved) {
        const QString name = exported.section(u'/', -1);
        if (!Paths::isSafePathComponent(name) || exported.contains(u'\\'))
            return false;
        *resolved = Paths::offloadRelativeDir(id) + u'/' + name;
        return true;
    };
    for (OffloadOverlay off : doc->offloads) {
        if (!ownPath(off.entry.relativePath, &off.entry.relativePath))
            return failAfterStart(QCoreApplication::translate("wl::SessionStore", "the offload of message %1 names the file \"%2\", which is not a file name")
                            .arg(off.messageId).arg(off.entry.relativePath));
        if (!insertOffload(*c, id, off, messageIds.value(off.messageId), now, &why))
            return failAfterStart(why);
    }
    for (CompactionRecord record : doc->records) {
        for (OffloadEntry &entry : record.offloaded) {
            entry.messageId = messageIds.value(entry.messageId);
            if (!ownPath(entry.relativePath, &entry.relativePath))
                return failAfterStart(QCoreApplication::translate("wl::SessionStore", "a compaction record names the offload file \"%1\", which is not a file name")
                                .arg(entry.relativePath));
        }
        if (!insertRecord(*c, id, record, &why))
            return failAfterStart(why);
    }
    {
        SqlQuery finished(*c, u"UPDATE sessions SET import_claim = NULL WHERE id = ?"_s);
        finished.bind(id);
        if (!finished.exec())
            return failAfterStart(finished.error());
    }
    if (!transaction->commit(&why))
        return failAfterStart(why);
    qCInfo(lcStore) << "imported" << path << "as session" << id;
    return id;
}

} // namespace wl
