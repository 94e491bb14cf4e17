#pragma once

#include "LoadedSession.h"

#include <QObject>

namespace wl {

class BackgroundRunner;

// Loads a whole session from the store on a worker thread (its own connection,
// as Qt requires), so opening a 100,000-message session never blocks the window.
class SessionLoader : public QObject
{
    Q_OBJECT
public:
    explicit SessionLoader(QObject *parent = nullptr);
    ~SessionLoader() override;

    // Answers with loaded() or failed(); a newer load supersedes an older one.
    void load(const QString &databasePath, const QString &sessionId);

    // The same work, synchronously (tools, tests, the worker itself).
    static bool loadNow(const QString &databasePath, const QString &sessionId, LoadedSession *out, QString *error);

Q_SIGNALS:
    void loaded(const wl::LoadedSession &session);
    void failed(const QString &sessionId, const QString &error);

private:
    BackgroundRunner *m_runner; // latest only; its destructor waits for a load in flight
};

} // namespace wl
