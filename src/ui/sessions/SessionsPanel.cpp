#include "SessionsPanel.h"

#include "ContinueSessionDialog.h"
#include "NewSessionDialog.h"
#include "SessionListModel.h"

#include "workbench/LoadedSession.h"

#include "compaction/CompactionPolicy.h"
#include "store/SessionStore.h"
#include "workbench/SessionLifecycle.h"
#include "tools/Workspace.h"

#include <QAction>
#include <QDir>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

SessionsPanel::SessionsPanel(SessionLifecycle *sessions, QWidget *parent)
    : QWidget(parent)
    , m_sessions(sessions)
    , m_model(new SessionListModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
    , m_demoModel(new SessionListModel(this))
    , m_demoHeading(new QLabel(this))
    , m_demoView(new QTreeView(this))
{
    setObjectName(u"SessionsPanel"_s);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(SessionListModel::SortRole);
    m_view->setObjectName(u"SessionsView"_s);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setSortingEnabled(true);
    m_view->sortByColumn(SessionListModel::ActivityColumn, Qt::DescendingOrder);
    m_view->setSelectionMode(QAbstractItemView::SingleSelection);
    m_view->header()->setSectionResizeMode(SessionListModel::TitleColumn, QHeaderView::Stretch);
    m_view->header()->setStretchLastSection(false);
    m_view->setContextMenuPolicy(Qt::ActionsContextMenu);

    auto *toolbar = new QToolBar(this);
    toolbar->setIconSize(QSize(16, 16));
    QAction *newAction = toolbar->addAction(QIcon::fromTheme(u"document-new"_s), tr("New..."));
    newAction->setToolTip(tr("Start a new session in a workspace folder"));
    QAction *renameAction = new QAction(tr("Rename..."), this);
    renameAction->setShortcut(Qt::Key_F2);
    renameAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    QAction *deleteAction = new QAction(QIcon::fromTheme(u"edit-delete"_s), tr("Delete..."), this);
    deleteAction->setShortcut(QKeySequence::Delete);
    deleteAction->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_continueAction = new QAction(QIcon::fromTheme(u"media-playback-start"_s), tr("&Continue Imported Session\u2026"), this);
    m_continueAction->setObjectName(u"ContinueSessionAction"_s);
    m_continueAction->setToolTip(tr("Choose the folder and provider an imported session continues with"));
    m_continueAction->setEnabled(false);
    toolbar->addAction(m_continueAction);
    toolbar->addAction(renameAction);
    toolbar->addAction(deleteAction);
    m_view->addActions({m_continueAction, renameAction, deleteAction});
    connect(newAction, &QAction::triggered, this, &SessionsPanel::newSessionDialog);
    connect(renameAction, &QAction::triggered, this, &SessionsPanel::renameDialog);
    connect(m_continueAction, &QAction::triggered, this, [this] { continueDialog(); });
    connect(m_view->selectionModel(), &QItemSelectionModel::currentChanged, this, &SessionsPanel::updateActions);
    connect(deleteAction, &QAction::triggered, this, &SessionsPanel::deleteDialog);
    connect(m_view, &QTreeView::activated, this, [this](const QModelIndex &index) {
        m_sessions->open(index.data(SessionListModel::SessionIdRole).toString());
    });
    connect(m_sessions, &SessionLifecycle::sessionsListed, this, &SessionsPanel::showSessions);
    connect(m_sessions, &SessionLifecycle::opened, this, [this](const LoadedSession &) {
        setCurrentSession(m_sessions->session().info.id);
        const int demoRow = m_demoModel->rowForSession(m_sessions->session().info.id);
        m_demoView->setCurrentIndex(demoRow >= 0 ? m_demoModel->index(demoRow, 0) : QModelIndex());
    });
    connect(m_sessions, &SessionLifecycle::writeFailed, this,
            [this](SessionLifecycle::Write write, const QString &id, const QString &error) {
        if (!m_askedToWrite.remove(id))
            return;
        QString title;
        switch (write) {
        case SessionLifecycle::Write::Create: title = tr("Could not create the session"); break;
        case SessionLifecycle::Write::Rename: title = tr("Could not rename the session"); break;
        case SessionLifecycle::Write::Delete: title = tr("Could not delete the session"); break;
        case SessionLifecycle::Write::Continue: title = tr("Could not continue the session"); break;
        case SessionLifecycle::Write::Policy: return; // the window says it
        case SessionLifecycle::Write::Pin:
        case SessionLifecycle::Write::Unpin: return; // the pins binding says it
        case SessionLifecycle::Write::Revise:
        case SessionLifecycle::Write::UndoRevision: return; // the checkpoint editing says it
        }
        QMessageBox::warning(this, title, error);
    });
    const auto written = [this](const QString &id) { m_askedToWrite.remove(id); };
    connect(m_sessions, &SessionLifecycle::sessionCreated, this, [this](const QString &id) {
        m_askedToWrite.remove(QString());
        m_wantedCurrent = id;
    });
    connect(m_sessions, &SessionLifecycle::sessionRenamed, this, written);
    connect(m_sessions, &SessionLifecycle::sessionDeleted, this, written);
    connect(m_sessions, &SessionLifecycle::sessionContinued, this, written);

    // The demo: its own heading and list, kept apart from the user's sessions.
    m_demoHeading->setObjectName(u"DemoHeading"_s);
    m_demoHeading->setText(tr("<b>Demo</b> (read-only, rebuilt by Waterline: your work is never kept here)"));
    m_demoHeading->setWordWrap(true);
    m_demoHeading->setContentsMargins(4, 6, 4, 2);
    m_demoView->setObjectName(u"DemoSessionsView"_s);
    m_demoView->setModel(m_demoModel);
    m_demoView->setRootIsDecorated(false);
    m_demoView->setHeaderHidden(true);
    m_demoView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_demoView->header()->setSectionResizeMode(SessionListModel::TitleColumn, QHeaderView::Stretch);
    m_demoView->header()->setStretchLastSection(false);
    for (int column = SessionListModel::TitleColumn + 1; column < SessionListModel::ColumnCount; ++column)
        m_demoView->setColumnHidden(column, column != SessionListModel::MessagesColumn);
    m_demoView->setMaximumHeight(m_demoView->fontMetrics().height() * 3);
    connect(m_demoView, &QTreeView::activated, this, [this](const QModelIndex &index) {
        m_sessions->open(index.data(SessionListModel::SessionIdRole).toString());
    });
    connect(m_sessions, &SessionLifecycle::demoListed, this, &SessionsPanel::showDemo);
    showDemo({});

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_view, 1);
    layout->addWidget(m_demoHeading);
    layout->addWidget(m_demoView);
}

void SessionsPanel::showDemo(const QList<SessionInfo> &sessions)
{
    m_demoModel->setSessions(sessions);
    m_demoHeading->setVisible(!sessions.isEmpty());
    m_demoView->setVisible(!sessions.isEmpty());
}

void SessionsPanel::refresh()
{
    m_sessions->listSessions();
}

void SessionsPanel::showSessions(const QList<SessionInfo> &sessions)
{
    const QString current = m_wantedCurrent.isEmpty() ? currentSessionId() : m_wantedCurrent;
    m_model->setSessions(sessions);
    if (!current.isEmpty() && m_model->rowForSession(current) >= 0) {
        setCurrentSession(current);
        m_wantedCurrent.clear();
    }
    updateActions();
}

void SessionsPanel::updateActions()
{
    m_continueAction->setEnabled(m_view->currentIndex().data(SessionListModel::ReadOnlyRole).toBool());
}

QString SessionsPanel::currentSessionId() const
{
    return m_view->currentIndex().data(SessionListModel::SessionIdRole).toString();
}

void SessionsPanel::setCurrentSession(const QString &id)
{
    const int row = m_model->rowForSession(id);
    if (row >= 0)
        m_view->setCurrentIndex(m_proxy->mapFromSource(m_model->index(row, 0)));
    else
        m_wantedCurrent = id; // listed a moment from now
    updateActions();
}

void SessionsPanel::setNewSessionDefaults(const CompactionPolicy &policy, const ProviderProfile &provider,
                                          const QList<ProviderProfile> &profiles)
{
    m_newPolicy = policy;
    m_newProvider = provider;
    m_profiles = profiles;
}

void SessionsPanel::continueSession(const QString &id, const QString &workspace, const ProviderProfile &provider)
{
    SessionStore::Continuation choice;
    choice.workspace = workspace;
    choice.providerName = provider.name;
    choice.providerProfile = provider.toJson();
    m_sessions->continueSession(id, choice);
}

void SessionsPanel::continueDialog(const QString &sessionId)
{
    const QString id = sessionId.isEmpty() ? currentSessionId() : sessionId;
    const int row = m_model->rowForSession(id);
    if (row < 0 || !m_model->index(row, 0).data(SessionListModel::ReadOnlyRole).toBool())
        return;
    ContinueSessionDialog dialog(m_model->index(row, SessionListModel::TitleColumn).data().toString(), m_profiles,
                                 m_newProvider ? m_newProvider->name : QString(), this);
    while (dialog.exec() == QDialog::Accepted) {
        if (!confirmWorkspace(dialog.workspace()))
            continue;
        m_askedToWrite.insert(id);
        continueSession(id, dialog.workspace(), dialog.profile());
        return;
    }
}

void SessionsPanel::createSession(const QString &title, const QString &workspace)
{
    SessionInfo fields;
    fields.title = title;
    fields.workspace = QDir(workspace).absolutePath();
    fields.policy = m_newPolicy.toJson();
    if (m_newProvider) {
        fields.providerName = m_newProvider->name;
        fields.providerProfile = m_newProvider->toJson();
    }
    m_sessions->createSession(fields);
}

void SessionsPanel::createSession(const QString &title, const QString &workspace, const ProviderProfile &provider,
                                  const CompactionPolicy &policy)
{
    SessionInfo fields;
    fields.title = title;
    fields.workspace = QDir(workspace).absolutePath();
    fields.policy = policy.toJson();
    fields.providerName = provider.name;
    fields.providerProfile = provider.toJson();
    m_sessions->createSession(fields);
}

void SessionsPanel::renameSession(const QString &id, const QString &title)
{
    m_sessions->renameSession(id, title);
}

void SessionsPanel::deleteSession(const QString &id)
{
    m_sessions->deleteSession(id);
}

bool SessionsPanel::confirmWorkspace(const QString &workspace)
{
    if (!Workspace::isBroadRoot(workspace))
        return true;
    return QMessageBox::warning(this, tr("New session"),
                                tr("The agent would work in %1, which is the whole file system or your home folder: it "
                                   "could read and change every file there, your keys included.\n\nUse this folder "
                                   "anyway?")
                                    .arg(QDir::toNativeSeparators(workspace)),
                                QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
        == QMessageBox::Yes;
}

void SessionsPanel::setOpenSessionPolicy(const QString &title, const std::optional<CompactionPolicy> &policy)
{
    m_openTitle = title;
    m_openPolicy = policy;
}

QList<NewSessionDialog::PolicyChoice> SessionsPanel::newSessionPolicies() const
{
    // The default is offered unsized when it was sized to the default model, so another model
    // chosen in the dialog gets its own window.
    CompactionPolicy defaults = m_newPolicy;
    if (m_newProvider && defaults.contextWindow == m_newProvider->effectiveContextWindow())
        defaults.contextWindow = CompactionPolicy().contextWindow;
    QList<NewSessionDialog::PolicyChoice> choices{{tr("Default (Settings \u203a Compaction)"), defaults},
                                                  {tr("Compaction spec defaults"), CompactionPolicy()}};
    if (m_openPolicy)
        choices.append({tr("As \u201c%1\u201d").arg(m_openTitle), *m_openPolicy});
    return choices;
}

void SessionsPanel::newSessionDialog()
{
    NewSessionDialog dialog(m_profiles, m_newProvider ? m_newProvider->name : QString(), newSessionPolicies(), this);
    while (dialog.exec() == QDialog::Accepted) {
        if (!confirmWorkspace(dialog.workspace()))
            continue;
        m_askedToWrite.insert(QString()); // a new session has no id until it is stored
        createSession(dialog.title(), dialog.workspace(), dialog.profile(), dialog.policy());
        return;
    }
}

void SessionsPanel::renameDialog()
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return;
    bool ok = false;
    const QString title = QInputDialog::getText(this, tr("Rename session"), tr("Title:"), QLineEdit::Normal,
                                                current.siblingAtColumn(SessionListModel::TitleColumn).data().toString(), &ok);
    if (!ok)
        return;
    m_askedToWrite.insert(currentSessionId());
    renameSession(currentSessionId(), title);
}

void SessionsPanel::deleteDialog()
{
    const QModelIndex current = m_view->currentIndex();
    if (!current.isValid())
        return;
    const QString title = current.siblingAtColumn(SessionListModel::TitleColumn).data().toString();
    const auto answer = QMessageBox::question(this, tr("Delete session"),
        tr("Delete \"%1\"? Its messages, compaction records, audit file and offloaded results are removed. "
           "The workspace's own files are not touched.").arg(title),
        QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel);
    if (answer != QMessageBox::Yes)
        return;
    const QString id = currentSessionId();
    m_askedToWrite.insert(id);
    deleteSession(id);
}

} // namespace wl
