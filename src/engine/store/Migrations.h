#pragma once

#include <QString>

namespace wl {

class SqlConnection;

// The schema of the session database as forward steps 1..N. Step k brings a file from
// user_version k-1 to k inside one transaction, so a crash leaves either k-1 or k.
class Migrations
{
public:
    // "WTLN": PRAGMA application_id of every Waterline database (v1 and later).
    static constexpr int kApplicationId = 0x57544C4E;

    static int latestVersion();

    // PRAGMA user_version, or -1 with SQLite's words in `error` (a corrupt file fails here).
    static int schemaVersion(SqlConnection &connection, QString *error);

    // Runs the steps after the file's version up to `target` (at most latestVersion()), in order.
    static bool migrate(SqlConnection &connection, int target, QString *error);
};

} // namespace wl
