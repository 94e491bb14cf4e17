#include "NewSessionDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

NewSessionDialog::NewSessionDialog(const QList<ProviderProfile> &profiles, const QString &defaultProfile,
                                   const QList<PolicyChoice> &policies, QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles.isEmpty() ? QList<ProviderProfile>{ProviderProfile::defaultProfile()} : profiles)
    , m_policies(policies.isEmpty() ? QList<PolicyChoice>{{tr("Compaction spec defaults"), CompactionPolicy()}} : policies)
    , m_workspace(new QLineEdit(this))
    , m_title(new QLineEdit(this))
    , m_provider(new QComboBox(this))
    , m_policy(new QComboBox(this))
    , m_summary(new QLabel(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(u"NewSessionDialog"_s);
    setWindowTitle(tr("New Session"));

    m_workspace->setObjectName(u"WorkspaceEdit"_s);
    m_workspace->setPlaceholderText(tr("The folder the agent works in"));
    m_workspace->setClearButtonEnabled(true);
    auto *browseButton = new QPushButton(tr("&Browse\u2026"), this);
    browseButton->setObjectName(u"BrowseButton"_s);
    auto *workspaceRow = new QHBoxLayout;
    workspaceRow->addWidget(m_workspace, 1);
    workspaceRow->addWidget(browseButton);

    m_title->setObjectName(u"TitleEdit"_s);
    m_title->setPlaceholderText(tr("The folder's name unless you give one"));

    m_provider->setObjectName(u"ProviderCombo"_s);
    for (const ProviderProfile &p : std::as_const(m_profiles))
        m_provider->addItem(p.model.isEmpty() ? p.name : tr("%1 (%2)").arg(p.name, p.model), p.name);
    setProfileName(defaultProfile);

    m_policy->setObjectName(u"PolicyCombo"_s);
    for (const PolicyChoice &c : std::as_const(m_policies))
        m_policy->addItem(c.label);
    m_summary->setObjectName(u"PolicySummary"_s);
    m_summary->setWordWrap(true);
    QPalette muted = m_summary->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    m_summary->setPalette(muted);

    auto *form = new QFormLayout;
    form->addRow(tr("&Workspace:"), workspaceRow);
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(workspaceRow)))
        label->setBuddy(m_workspace);
    form->addRow(tr("&Title:"), m_title);
    form->addRow(tr("&Provider:"), m_provider);
    form->addRow(tr("&Compaction:"), m_policy);
    form->addRow(QString(), m_summary);

    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Start Session"));
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    setMinimumWidth(560);

    connect(browseButton, &QPushButton::clicked, this, &NewSessionDialog::browse);
    connect(m_workspace, &QLineEdit::textChanged, this, &NewSessionDialog::updateState);
    connect(m_title, &QLineEdit::textEdited, this, [this] { m_titleEdited = true; });
    connect(m_provider, &QComboBox::currentIndexChanged, this, &NewSessionDialog::updateState);
    connect(m_policy, &QComboBox::currentIndexChanged, this, &NewSessionDialog::updateState);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateState();
}

QString NewSessionDialog::workspace() const
{
    const QString text = m_workspace->text().trimmed();
    return text.isEmpty() ? QString() : QFileInfo(QDir::fromNativeSeparators(text)).absoluteFilePath();
}

void NewSessionDialog::setWorkspace(const QString &folder)
{
    m_workspace->setText(QDir::toNativeSeparators(folder));
}

QString NewSessionDialog::title() const
{
    const QString typed = m_title->text().trimmed();
    return typed.isEmpty() ? QDir(workspace()).dirName() : typed;
}

void NewSessionDialog::setTitle(const QString &title)
{
    m_title->setText(title);
    m_titleEdited = true;
}

ProviderProfile NewSessionDialog::profile() const
{
    return m_profiles.value(std::max(0, m_provider->currentIndex()), m_profiles.constFirst());
}

bool NewSessionDialog::setProfileName(const QString &name)
{
    const int index = m_provider->findData(name);
    if (index < 0)
        return false;
    m_provider->setCurrentIndex(index);
    return true;
}

CompactionPolicy NewSessionDialog::policy() const
{
    const PolicyChoice &choice = m_policies.at(std::clamp(m_policy->currentIndex(), 0, int(m_policies.size()) - 1));
    return profile().sizedPolicy(choice.policy);
}

void NewSessionDialog::setPolicyIndex(int index)
{
    m_policy->setCurrentIndex(index);
}

void NewSessionDialog::browse()
{
    const QString start = workspace().isEmpty() ? QDir::homePath() : workspace();
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Choose the folder the agent works in"), start);
    if (!folder.isEmpty())
        setWorkspace(folder);
}

void NewSessionDialog::updateState()
{
    const QString folder = workspace();
    const bool ok = !folder.isEmpty() && QFileInfo(folder).isDir();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
    m_workspace->setToolTip(ok || folder.isEmpty() ? QString() : tr("%1 is not a folder").arg(QDir::toNativeSeparators(folder)));
    if (!m_titleEdited)
        m_title->setPlaceholderText(folder.isEmpty() ? tr("The folder's name unless you give one") : QDir(folder).dirName());

    const CompactionPolicy p = policy();
    const QLocale locale;
    const auto percent = [&locale](double ratio) { return locale.toString(qRound(ratio * 100)); };
    m_summary->setText(tr("Window %1 tokens · warn at %2\u00a0%, soft %3\u00a0%, full %4\u00a0%, emergency %5\u00a0% · last %6 messages kept")
                           .arg(locale.toString(p.contextWindow), percent(p.warn), percent(p.soft), percent(p.full),
                                percent(p.emergency))
                           .arg(p.tailMessages));
}

} // namespace wl
