#include "Migrations.h"

#include "LoggingCategories.h"
#include "SqlConnection.h"
#include "SqlQuery.h"
#include "SqlTransaction.h"

#include <QCoreApplication>
#include <QStringList>

#include <algorithm>
#include <iterator>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

// Times are INTEGER milliseconds since the Unix epoch (UTC). JSON columns hold compact JSON text.
// Every child table names its session with ON DELETE CASCADE and has an index that starts with
// session_id, so deleting a session never scans another session's rows.
// Speed of a step (one transaction) is mostly the pages it dirties, so: no AUTOINCREMENT (it
// rewrites sqlite_sequence on every insert; ids can only be reused after the session holding the
// highest ids was deleted, and every reference to a message id lives inside its own session), and
// no counters in sessions: a session's message count and last activity come from the
// (session_id, seq) index in O(log n), because seq is dense from 0.
const QStringList &schemaV1()
{
    static const QStringList statements{
        uR"(CREATE TABLE sessions (
            id TEXT PRIMARY KEY NOT NULL,
            title TEXT NOT NULL DEFAULT '',
            workspace TEXT NOT NULL DEFAULT '',
            created_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            policy TEXT NOT NULL DEFAULT '{}',
            provider_name TEXT NOT NULL DEFAULT '',
            provider_profile TEXT NOT NULL DEFAULT '{}',
            summarizer_profile TEXT NOT NULL DEFAULT '{}',
            approval_policy TEXT NOT NULL DEFAULT ''
        ))"_s,

        uR"(CREATE TABLE messages (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            role TEXT NOT NULL CHECK (role IN ('system', 'user', 'assistant', 'tool')),
            content TEXT NOT NULL,
            tool_calls TEXT,
            tool_call_id TEXT,
            is_error INTEGER NOT NULL DEFAULT 0,
            bytes INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            request_id INTEGER,
            UNIQUE (session_id, seq)
        ))"_s,

        uR"(CREATE TABLE requests (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            idx INTEGER NOT NULL,
            view_checkpoint_id INTEGER,
            view_message_ids TEXT NOT NULL DEFAULT '[]',
            estimate_tokens INTEGER NOT NULL DEFAULT 0,
            tool_schema_tokens INTEGER NOT NULL DEFAULT 0,
            input_tokens INTEGER,
            output_tokens INTEGER,
            cache_read_tokens INTEGER,
            cache_write_tokens INTEGER,
            tier INTEGER NOT NULL DEFAULT 0,
            model TEXT NOT NULL DEFAULT '',
            started_at INTEGER,
            finished_at INTEGER,
            error TEXT NOT NULL DEFAULT '',
            UNIQUE (session_id, idx)
        ))"_s,

        uR"(CREATE TABLE checkpoints (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            covers_from_message_id INTEGER NOT NULL,
            covers_up_to_message_id INTEGER NOT NULL,
            text TEXT NOT NULL,
            summary TEXT NOT NULL DEFAULT '',
            anchor_user_intent TEXT NOT NULL,
            anchor_execution_progress TEXT NOT NULL,
            anchor_key_decision TEXT NOT NULL,
            anchor_tried_solution TEXT NOT NULL,
            anchor_next_step TEXT NOT NULL,
            record_id TEXT NOT NULL DEFAULT '',
            tier INTEGER NOT NULL DEFAULT 0,
            created_at INTEGER NOT NULL
        ))"_s,
        u"CREATE INDEX checkpoints_by_session ON checkpoints (session_id, id)"_s,

        uR"(CREATE TABLE offloads (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            message_id INTEGER NOT NULL UNIQUE REFERENCES messages (id) ON DELETE CASCADE,
            call_id TEXT NOT NULL,
            tool_name TEXT NOT NULL,
            relative_path TEXT NOT NULL,
            bytes INTEGER NOT NULL,
            lines INTEGER NOT NULL,
            gate INTEGER NOT NULL,
            placeholder TEXT NOT NULL,
            record_id TEXT NOT NULL DEFAULT '',
            created_at INTEGER NOT NULL
        ))"_s,
        u"CREATE INDEX offloads_by_session ON offloads (session_id, id)"_s,

        uR"(CREATE TABLE compaction_records (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            record_id TEXT NOT NULL,
            request_index INTEGER NOT NULL,
            timestamp INTEGER NOT NULL,
            tier INTEGER NOT NULL,
            changed INTEGER NOT NULL,
            tokens_before INTEGER NOT NULL,
            tokens_after INTEGER NOT NULL,
            msgs_before INTEGER NOT NULL,
            msgs_after INTEGER NOT NULL,
            summarized INTEGER NOT NULL,
            offloaded INTEGER NOT NULL,
            duration_ms INTEGER NOT NULL,
            error TEXT NOT NULL DEFAULT '',
            json TEXT NOT NULL,
            UNIQUE (session_id, record_id)
        ))"_s,
        u"CREATE INDEX records_by_session ON compaction_records (session_id, request_index)"_s,

        uR"(CREATE TABLE anchor_history (
            record_row INTEGER NOT NULL REFERENCES compaction_records (id) ON DELETE CASCADE,
            session_id TEXT NOT NULL,
            request_index INTEGER NOT NULL,
            kind INTEGER NOT NULL CHECK (kind BETWEEN 0 AND 4),
            value TEXT NOT NULL,
            change INTEGER NOT NULL,
            PRIMARY KEY (record_row, kind)
        ))"_s,
        u"CREATE INDEX anchor_history_by_session ON anchor_history (session_id, request_index)"_s,

        // A constant of this build, not a value from outside: PRAGMAs take no bound parameters.
        u"PRAGMA application_id = %1"_s.arg(Migrations::kApplicationId),
    };
    return statements;
}

// v2: finding a tool result by its call id (the offload browser and read-back of a call's
// output) without scanning the session. Partial: most messages are not tool results.
const QStringList &schemaV2()
{
    static const QStringList statements{
        u"CREATE INDEX messages_by_tool_call ON messages (session_id, tool_call_id, seq) "
        "WHERE tool_call_id IS NOT NULL"_s,
    };
    return statements;
}

// v3: where an imported session came from (replay/SessionImporter): the source format and
// file, and a JSON text with what the UI draws beside Waterline's own compactions (the source
// agent's compactions, the pairing issues kept as they were, skipped records). One row per
// imported session at most; sessions made by Waterline itself have none.
const QStringList &schemaV3()
{
    static const QStringList statements{
        uR"(CREATE TABLE session_sources (
            session_id TEXT PRIMARY KEY NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            format TEXT NOT NULL,
            source_path TEXT NOT NULL DEFAULT '',
            imported_at INTEGER NOT NULL,
            details TEXT NOT NULL DEFAULT '{}'
        ))"_s,
    };
    return statements;
}

// v4: the system prompt an agent session runs with, so a reopened session sends the same one.
const QStringList &schemaV4()
{
    static const QStringList statements{
        u"ALTER TABLE sessions ADD COLUMN system_prompt TEXT NOT NULL DEFAULT ''"_s,
    };
    return statements;
}

// v5: the tool schemas an agent session offers its model, and per request the bytes of the
// schemas it was sent with, so a replay counts them as the agent's preflight did.
const QStringList &schemaV5()
{
    static const QStringList statements{
        u"ALTER TABLE sessions ADD COLUMN tool_schemas TEXT NOT NULL DEFAULT ''"_s,
        u"ALTER TABLE requests ADD COLUMN tool_schema_bytes INTEGER"_s,
    };
    return statements;
}

// v6: an imported session is read-only until the user continues it and chooses where it works
// and which provider it talks to. Sessions imported before v6 become read-only too.
const QStringList &schemaV6()
{
    static const QStringList statements{
        u"ALTER TABLE sessions ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0"_s,
        u"UPDATE sessions SET read_only = 1 WHERE id IN (SELECT session_id FROM session_sources)"_s,
    };
    return statements;
}

// v7: what a client sent besides its messages, per request, as the proxy recorded it (the system
// prompt and the tool schemas), so a replay of recorded traffic is exact. Clients send the same
// ones again and again: each distinct pair is kept once per session and requests point at it.
const QStringList &schemaV7()
{
    static const QStringList statements{
        uR"(CREATE TABLE request_contexts (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            digest TEXT NOT NULL,
            system_prompt TEXT NOT NULL,
            tool_schemas TEXT NOT NULL,
            UNIQUE (session_id, digest)
        ))"_s,
        u"ALTER TABLE requests ADD COLUMN context_id INTEGER"_s,
    };
    return statements;
}

// v8: pinned facts (docs/COMPACTION.md section 12): a whole message, a selection in one (its text
// copied) or a free-text note, made by the user or proposed by the model and approved. Every view
// shows them after the system prompt; nothing compaction does removes them.
const QStringList &schemaV8()
{
    static const QStringList statements{
        uR"(CREATE TABLE pins (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('message', 'selection', 'note')),
            source TEXT NOT NULL CHECK (source IN ('user', 'model')),
            message_id INTEGER,
            text TEXT NOT NULL,
            reason TEXT NOT NULL DEFAULT '',
            created_at INTEGER NOT NULL
        ))"_s,
        u"CREATE INDEX pins_by_session ON pins (session_id, id)"_s,
    };
    return statements;
}

// v9: versions of a checkpoint (issue #22 items 7, 8). The checkpoints row holds version 1, what
// the compaction made; each edit (in review before it committed, or later) adds the next version
// here for the requests from from_request_index on. Undo sets undone_at: no text is ever lost.
const QStringList &schemaV9()
{
    static const QStringList statements{
        uR"(CREATE TABLE checkpoint_versions (
            id INTEGER PRIMARY KEY,
            session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
            checkpoint_id INTEGER NOT NULL REFERENCES checkpoints (id) ON DELETE CASCADE,
            version INTEGER NOT NULL CHECK (version >= 2),
            text TEXT NOT NULL,
            summary TEXT NOT NULL DEFAULT '',
            anchors TEXT NOT NULL DEFAULT '{}',
            from_request_index INTEGER NOT NULL,
            created_at INTEGER NOT NULL,
            undone_at INTEGER,
            UNIQUE (checkpoint_id, version)
        ))"_s,
        u"CREATE INDEX checkpoint_versions_by_session ON checkpoint_versions (session_id, checkpoint_id, version)"_s,
        u"CREATE INDEX checkpoint_versions_by_checkpoint ON checkpoint_versions (checkpoint_id)"_s,
    };
    return statements;
}

// v10: an import in progress (issue #31 section 1). The process that writes the session names
// itself here ("host pid start", SessionStore::claimImport) until the import is complete, when
// the column becomes NULL: a session whose import was killed or ran out of disk is never listed,
// and the next open removes it once that process is gone (SessionStore::removeAbandonedImports).
const QStringList &schemaV10()
{
    static const QStringList statements{
        u"ALTER TABLE sessions ADD COLUMN import_claim TEXT"_s,
    };
    return statements;
}

struct Step
{
    int version;
    const QStringList &(*statements)();
};

constexpr Step kSteps[] = {
    {1, &schemaV1},
    {2, &schemaV2},
    {3, &schemaV3},
    {4, &schemaV4},
    {5, &schemaV5},
    {6, &schemaV6},
    {7, &schemaV7},
    {8, &schemaV8},
    {9, &schemaV9},
    {10, &schemaV10},
};

} // namespace

int Migrations::latestVersion()
{
    return kSteps[std::size(kSteps) - 1].version;
}

int Migrations::schemaVersion(SqlConnection &connection, QString *error)
{
    SqlQuery query(connection, u"PRAGMA user_version"_s);
    if (!query.exec() || !query.next()) {
        if (error)
            *error = query.error().isEmpty() ? QCoreApplication::translate("wl::Migrations", "cannot read the schema version")
                                             : query.error();
        return -1;
    }
    return int(query.int64(0));
}

bool Migrations::migrate(SqlConnection &connection, int target, QString *error)
{
    target = std::min(target, latestVersion());
    for (const Step &step : kSteps) {
        if (step.version > target)
            break;
        SqlTransaction transaction(connection);
        if (!transaction.isActive()) {
            if (error)
                *error = transaction.error();
            return false;
        }
        // Read inside the write lock: another process may have migrated meanwhile.
        const int current = schemaVersion(connection, error);
        if (current < 0)
            return false;
        if (current >= step.version)
            continue;
        if (current != step.version - 1) {
            if (error)
                *error = QCoreApplication::translate("wl::Migrations", "schema version %1 cannot be upgraded to %2")
                             .arg(current)
                             .arg(step.version);
            return false;
        }
        for (const QString &sql : step.statements()) {
            QString why;
            if (!connection.execute(sql, &why)) {
                if (error)
                    *error = QCoreApplication::translate("wl::Migrations", "migration to schema %1 failed: %2")
                                 .arg(step.version)
                                 .arg(why);
                return false;
            }
        }
        if (!connection.execute(u"PRAGMA user_version = %1"_s.arg(step.version), error))
            return false;
        if (!transaction.commit(error))
            return false;
        qCInfo(lcStore) << "database schema migrated to version" << step.version;
    }
    return true;
}

} // namespace wl
