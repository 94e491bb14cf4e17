#include "CliLoad.h"

#include "CliCommands.h"
#include "CliSimulate.h"

#include "score/RecordedRequests.h"
#include "score/RecordedSession.h"
#include "settings/AppSettings.h"
#include "store/SessionStore.h"

#include <QCoreApplication>

namespace wl::cli {

std::optional<LoadedSession> loadTranscript(const QString &path, const QString &format, int runIndex, QString *error)
{
    std::optional<RecordedSession> imported = RecordedSession::importFile(path, format, runIndex, error);
    if (!imported)
        return std::nullopt;
    LoadedSession loaded;
    loaded.name = imported->name;
    loaded.replay = std::move(imported->replay);
    loaded.recorded = std::move(imported->recorded);
    loaded.reportedOutput = std::move(imported->reportedOutput);
    loaded.policy = loaded.replay.defaultPolicy();
    return loaded;
}

std::optional<int> loadStored(const QString &dbPath, const QString &id, LoadedSession *out)
{
    SessionStore store;
    int code = Ok;
    if (!openExistingStore(store, dbPath, &code))
        return code;
    QString error;
    const std::optional<SessionInfo> info = store.session(id, &error);
    if (!info)
        return badInput(QCoreApplication::translate("waterline-cli", "%1: %2").arg(dbPath, error));
    const QList<RequestRecord> requests = store.requests(id, &error);
    const ContextOverlays overlays = error.isEmpty() ? store.overlays(id, &error) : ContextOverlays();
    const QList<CompactionRecord> records = error.isEmpty() ? store.records(id, &error) : QList<CompactionRecord>();
    const std::optional<SessionSource> sessionSource = error.isEmpty() ? store.sessionSource(id, &error) : std::nullopt;
    QList<Message> history = error.isEmpty() ? store.history(id, &error) : QList<Message>();
    if (!error.isEmpty())
        return badInput(QCoreApplication::translate("waterline-cli", "%1: %2").arg(dbPath, error));
    LoadedSession &loaded = *out;
    loaded.name = id;
    loaded.replay = ReplayInput::fromStored(*info, std::move(history), requests, overlays, sessionSource);
    loaded.replay.noteRecords(records);
    loaded.recorded = RecordedRun::fromStored(loaded.replay, requests, overlays, records);
    for (const RequestRecord &r : requests)
        loaded.reportedOutput.append(r.outputTokens.value_or(-1));
    loaded.policy = RecordedRequests::policyOf(*info, loaded.replay);
    return std::nullopt;
}

PriceTable settingsPrices()
{
    PriceTable prices = PriceTable::builtIn();
    QStringList problems;
    prices.applyOverrides(AppSettings().priceOverrides(), &problems);
    for (const QString &p : std::as_const(problems))
        printError(QCoreApplication::translate("waterline-cli", "warning: the price override for '%1' is not an object of prices >= 0; ignored").arg(p));
    return prices;
}

} // namespace wl::cli
