#pragma once

#include <QString>

namespace wl::ImportClaim {

// Who is importing a session (schema 10, sessions.import_claim): "<host> <pid> <start>", where
// <start> tells this process from a later one given the same pid (Linux: its start time in
// clock ticks since boot, from /proc; elsewhere 0).
QString mine();

// True when the process a claim names is gone: its import will never finish. A claim of another
// host, or one that cannot be read, is never called abandoned (that import may still be running).
bool isAbandoned(const QString &claim);

} // namespace wl::ImportClaim
