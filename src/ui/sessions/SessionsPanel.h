#pragma once

#include "NewSessionDialog.h"
#include "compaction/CompactionPolicy.h"
#include "llm/ProviderProfile.h"

#include <QWidget>

#include <QSet>

#include <optional>

class QAction;
class QSortFilterProxyModel;
class QTreeView;

namespace wl {

class BackgroundRunner;
class SessionListModel;
class SessionStore;
struct SessionInfo;

// The Sessions dock: open, new (in a workspace folder), rename, delete (after confirmation).
class SessionsPanel : public QWidget
{
    Q_OBJECT
public:
    // The store must outlive the panel; deletions use it from a worker thread (its own connection).
    explicit SessionsPanel(SessionStore *store, QWidget *parent = nullptr);

    SessionListModel *model() const { return m_model; }
    QTreeView *view() const { return m_view; }

    void refresh();
    void setCurrentSession(const QString &id);
    QString currentSessionId() const;

    // The actions without dialogs (the dialogs call these); false with a message on failure.
    bool createSession(const QString &title, const QString &workspace, QString *newId, QString *error);
    // ... on `provider` with `policy` (as New Session chose them).
    bool createSession(const QString &title, const QString &workspace, const ProviderProfile &provider,
                       const CompactionPolicy &policy, QString *newId, QString *error);
    bool renameSession(const QString &id, const QString &title, QString *error);
    // Deletes off the GUI thread (rows, offload files and audit file can take a while, and a busy
    // database would block the window); sessionDeleted() or deleteFailed() follows. Deletions run
    // one after another, each one.
    void deleteSession(const QString &id);
    bool isDeleting() const;

    // What new sessions start with: the default compaction policy and the provider they run on,
    // and the profiles a continued import may choose from.
    void setNewSessionDefaults(const CompactionPolicy &policy, const ProviderProfile &provider,
                               const QList<ProviderProfile> &profiles = {});
    // The open session's policy, which New Session offers to start with too (nullopt: none open).
    void setOpenSessionPolicy(const QString &title, const std::optional<CompactionPolicy> &policy);
    // What New Session offers: the default policy, the spec's, and the open session's when one is open.
    QList<NewSessionDialog::PolicyChoice> newSessionPolicies() const;
    // Makes an imported (read-only) session runnable in `workspace` with `provider`, off the GUI
    // thread (its offloads move and the store is written); then refreshes and asks to open it
    // (openRequested), or continueFailed() says why and nothing changed.
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

Q_SIGNALS:
    void openRequested(const QString &sessionId);
    void sessionDeleted(const QString &sessionId);
    void deleteFailed(const QString &sessionId, const QString &error);
    void continueFailed(const QString &sessionId, const QString &error);
    // A session was renamed (the list is refreshed already).
    void sessionRenamed(const QString &sessionId, const QString &title);

private:
    bool create(const SessionInfo &fields, QString *newId, QString *error);
    void renameDialog();
    void deleteDialog();
    void updateActions();

    SessionStore *m_store;
    BackgroundRunner *m_writes;
    QSet<QString> m_askedToDelete; // deletions the dialog started: their failure is shown
    QSet<QString> m_askedToContinue; // likewise for continuations
    CompactionPolicy m_newPolicy;
    std::optional<ProviderProfile> m_newProvider;
    QList<ProviderProfile> m_profiles;
    QString m_openTitle;
    std::optional<CompactionPolicy> m_openPolicy;
    QAction *m_continueAction = nullptr;
    SessionListModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QTreeView *m_view;
};

} // namespace wl
