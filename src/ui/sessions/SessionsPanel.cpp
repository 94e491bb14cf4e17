#include "SessionsPanel.h"

#include "ContinueSessionDialog.h"
#include "NewSessionDialog.h"
#include "SessionListModel.h"

#include "common/BackgroundRunner.h"
#include "compaction/CompactionPolicy.h"
#include "store/SessionStore.h"
#include "tools/Workspace.h"

#include <QAction>
#include <QDir>
#include <QHeaderView>
#include <QInputDialog>
#include <QMessageBox>
#include <QSortFilterProxyModel>
#include <QToolBar>
#include <QTreeView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

SessionsPanel::SessionsPanel(SessionStore *store, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_writes(new BackgroundRunner(BackgroundRunner::Policy::Queue, this))
    , m_model(new SessionListModel(this))
    , m_proxy(new QSortFilterProxyModel(this))
    , m_view(new QTreeView(this))
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
        Q_EMIT openRequested(index.data(SessionListModel::SessionIdRole).toString());
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(toolbar);
    layout->addWidget(m_view, 1);
    refresh();
}

void SessionsPanel::refresh()
{
    const QString current = currentSessionId();
    QString error;
    m_model->setSessions(m_store && m_store->isOpen() ? m_store->listSessions(&error) : QList<SessionInfo>());
    if (!current.isEmpty())
        setCurrentSession(current);
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
    m_writes->run([store = m_store, id, choice](QString &error) {
        const bool ok = store->continueSession(id, choice, &error);
        store->releaseThreadConnection(); // pool threads outlive the job
        return ok;
    }, [this, id](bool ok, const QString &error) {
        const bool asked = m_askedToContinue.remove(id);
        if (!ok) {
            Q_EMIT continueFailed(id, error);
            if (asked)
                QMessageBox::warning(this, tr("Could not continue the session"), error);
            return;
        }
        refresh();
        setCurrentSession(id);
        Q_EMIT openRequested(id);
    });
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
        m_askedToContinue.insert(id);
        continueSession(id, dialog.workspace(), dialog.profile());
        return;
    }
}

bool SessionsPanel::createSession(const QString &title, const QString &workspace, QString *newId, QString *error)
{
    SessionInfo fields;
    fields.title = title;
    fields.workspace = QDir(workspace).absolutePath();
    fields.policy = m_newPolicy.toJson();
    if (m_newProvider) {
        fields.providerName = m_newProvider->name;
        fields.providerProfile = m_newProvider->toJson();
    }
    return create(fields, newId, error);
}

bool SessionsPanel::createSession(const QString &title, const QString &workspace, const ProviderProfile &provider,
                                  const CompactionPolicy &policy, QString *newId, QString *error)
{
    SessionInfo fields;
    fields.title = title;
    fields.workspace = QDir(workspace).absolutePath();
    fields.policy = policy.toJson();
    fields.providerName = provider.name;
    fields.providerProfile = provider.toJson();
    return create(fields, newId, error);
}

bool SessionsPanel::create(const SessionInfo &fields, QString *newId, QString *error)
{
    const std::optional<SessionInfo> created = m_store->createSession(fields, error);
    if (!created)
        return false;
    if (newId)
        *newId = created->id;
    refresh();
    setCurrentSession(created->id);
    return true;
}

bool SessionsPanel::renameSession(const QString &id, const QString &title, QString *error)
{
    if (!m_store->renameSession(id, title, error))
        return false;
    refresh();
    Q_EMIT sessionRenamed(id, title);
    return true;
}

void SessionsPanel::deleteSession(const QString &id)
{
    m_writes->run([store = m_store, id](QString &error) {
        const bool ok = store->deleteSession(id, &error);
        store->releaseThreadConnection(); // pool threads outlive the job
        return ok;
    }, [this, id](bool ok, const QString &error) {
        const bool asked = m_askedToDelete.remove(id);
        if (!ok) {
            Q_EMIT deleteFailed(id, error);
            if (asked)
                QMessageBox::warning(this, tr("Could not delete the session"), error);
            return;
        }
        refresh();
        Q_EMIT sessionDeleted(id);
    });
}

bool SessionsPanel::isDeleting() const
{
    return m_writes->isBusy();
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
        QString id, error;
        if (!createSession(dialog.title(), dialog.workspace(), dialog.profile(), dialog.policy(), &id, &error)) {
            QMessageBox::warning(this, tr("Could not create the session"), error);
            return;
        }
        Q_EMIT openRequested(id);
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
    QString error;
    if (ok && !renameSession(currentSessionId(), title, &error))
        QMessageBox::warning(this, tr("Could not rename the session"), error);
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
    m_askedToDelete.insert(id);
    deleteSession(id);
}

} // namespace wl
