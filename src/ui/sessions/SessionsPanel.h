#pragma once

#include "NewSessionDialog.h"
#include "compaction/CompactionPolicy.h"
#include "llm/ProviderProfile.h"
#include "store/SessionInfo.h"

#include <QWidget>

#include <QSet>

#include <optional>

class QAction;
class QLabel;
class QSortFilterProxyModel;
class QTreeView;

namespace wl {

class SessionLifecycle;
class SessionListModel;

// The Sessions dock: open, new (in a workspace folder), rename, delete (after confirmation).
// A view of the SessionLifecycle: it lists what the lifecycle lists and asks it for every
// change, which runs off the GUI thread; the list follows when the change is stored. The
// user's sessions come first; the demo, once built, is under a heading of its own below them
// (read-only: it can be opened, nothing else).
class SessionsPanel : public QWidget
{
    Q_OBJECT
public:
    explicit SessionsPanel(SessionLifecycle *sessions, QWidget *parent = nullptr);

    SessionListModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }
    SessionListModel *demoModel() const { return m_demoModel; }
    QTreeView *demoView() const { return m_demoView; }

    void refresh();
    void setCurrentSession(const QString &id);
    QString currentSessionId() const;

    // The actions without dialogs (the dialogs call these). Each is stored off the GUI thread,
    // in order; the lifecycle's signals say when (sessionCreated, sessionRenamed, sessionDeleted)
    // or why not (writeFailed: shown in a message box when a dialog of this panel asked).
    // A created session is opened.
    void createSession(const QString &title, const QString &workspace);
    // ... on `provider` with `policy` (as New Session chose them).
    void createSession(const QString &title, const QString &workspace, const ProviderProfile &provider,
                       const CompactionPolicy &policy);
    void renameSession(const QString &id, const QString &title);
    void deleteSession(const QString &id);

    // What new sessions start with: the default compaction policy and the provider they run on,
    // and the profiles a continued import may choose from.
    void setNewSessionDefaults(const CompactionPolicy &policy, const ProviderProfile &provider,
                               const QList<ProviderProfile> &profiles = {});
    // The open session's policy, which New Session offers to start with too (nullopt: none open).
    void setOpenSessionPolicy(const QString &title, const std::optional<CompactionPolicy> &policy);
    // What New Session offers: the default policy, the spec's, and the open session's when one is open.
    QList<NewSessionDialog::PolicyChoice> newSessionPolicies() const;
    // Makes an imported (read-only) session runnable in `workspace` with `provider`, off the GUI
    // thread (its offloads move and the store is written); then the lifecycle opens it, or its
    // writeFailed() says why and nothing changed.
    void continueSession(const QString &id, const QString &workspace, const ProviderProfile &provider);
    // Asks where and with which provider an imported session (default: the current one) continues.
    void continueDialog(const QString &sessionId = {});
    // Enabled while the current session is an import waiting to be continued.
    QAction *continueAction() const { return m_continueAction; }

    // Asks for a workspace folder, a title, the provider and the compaction policy
    // (NewSessionDialog), creates the session and asks to open it.
    void newSessionDialog();
    // True when `workspace` is an ordinary folder, or the user agreed to let the agent work in
    // "/" or the home folder itself (which puts every file, keys included, within its reach).
    bool confirmWorkspace(const QString &workspace);

private:
    void renameDialog();
    void deleteDialog();
    void updateActions();
    void showSessions(const QList<SessionInfo> &sessions);
    void showDemo(const QList<SessionInfo> &sessions);

    SessionLifecycle *m_sessions;
    QSet<QString> m_askedToWrite; // writes a dialog of this panel started: their failure is shown
    QString m_wantedCurrent;      // selected once the list holds it
    CompactionPolicy m_newPolicy;
    std::optional<ProviderProfile> m_newProvider;
    QList<ProviderProfile> m_profiles;
    QString m_openTitle;
    std::optional<CompactionPolicy> m_openPolicy;
    QAction *m_continueAction = nullptr;
    SessionListModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
    SessionListModel *m_demoModel;
    QLabel *m_demoHeading;
    QTreeView *m_demoView;
};

} // namespace wl
