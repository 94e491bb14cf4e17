#include "ContinueSessionDialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

ContinueSessionDialog::ContinueSessionDialog(const QString &title, const QList<ProviderProfile> &profiles,
                                             const QString &defaultProfile, QWidget *parent)
    : QDialog(parent)
    , m_profiles(profiles.isEmpty() ? QList<ProviderProfile>{ProviderProfile::defaultProfile()} : profiles)
    , m_workspace(new QLineEdit(this))
    , m_provider(new QComboBox(this))
    , m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this))
{
    setObjectName(u"ContinueSessionDialog"_s);
    setWindowTitle(tr("Continue Imported Session"));

    auto *intro = new QLabel(tr("<b>%1</b> was imported and is read-only. To let an agent continue it, choose the folder "
                                "it works in and the provider it talks to.<br><br>Nothing is taken from the imported "
                                "file: not its folder, not its provider or key, not its approval settings, and not its "
                                "system prompt (the agent uses Waterline's own). The recorded history stays as it was.")
                                 .arg(title.toHtmlEscaped()),
                             this);
    intro->setWordWrap(true);
    intro->setTextFormat(Qt::RichText);

    m_workspace->setObjectName(u"WorkspaceEdit"_s);
    m_workspace->setPlaceholderText(tr("The folder the agent works in"));
    m_workspace->setClearButtonEnabled(true);
    auto *browseButton = new QPushButton(tr("&Browse\u2026"), this);
    auto *workspaceRow = new QHBoxLayout;
    workspaceRow->addWidget(m_workspace, 1);
    workspaceRow->addWidget(browseButton);

    m_provider->setObjectName(u"ProviderCombo"_s);
    for (const ProviderProfile &p : std::as_const(m_profiles))
        m_provider->addItem(p.model.isEmpty() ? p.name : tr("%1 (%2)").arg(p.name, p.model), p.name);
    setProfileName(defaultProfile);

    auto *form = new QFormLayout;
    form->addRow(tr("&Workspace:"), workspaceRow);
    form->addRow(tr("&Provider:"), m_provider);
    // The label's buddy is the line edit inside the row.
    if (auto *label = qobject_cast<QLabel *>(form->labelForField(workspaceRow)))
        label->setBuddy(m_workspace);

    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Continue Here"));
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addStretch(1);
    layout->addWidget(m_buttons);
    setMinimumWidth(520);

    connect(browseButton, &QPushButton::clicked, this, &ContinueSessionDialog::browse);
    connect(m_workspace, &QLineEdit::textChanged, this, &ContinueSessionDialog::updateButtons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    updateButtons();
}

QString ContinueSessionDialog::workspace() const
{
    const QString text = m_workspace->text().trimmed();
    return text.isEmpty() ? QString() : QFileInfo(QDir::fromNativeSeparators(text)).absoluteFilePath();
}

void ContinueSessionDialog::setWorkspace(const QString &folder)
{
    m_workspace->setText(QDir::toNativeSeparators(folder));
}

ProviderProfile ContinueSessionDialog::profile() const
{
    const int index = std::max(0, m_provider->currentIndex());
    return m_profiles.value(index, m_profiles.constFirst());
}

bool ContinueSessionDialog::setProfileName(const QString &name)
{
    const int index = m_provider->findData(name);
    if (index < 0)
        return false;
    m_provider->setCurrentIndex(index);
    return true;
}

void ContinueSessionDialog::browse()
{
    const QString start = workspace().isEmpty() ? QDir::homePath() : workspace();
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Choose the folder the agent works in"), start);
    if (!folder.isEmpty())
        setWorkspace(folder);
}

void ContinueSessionDialog::updateButtons()
{
    const QString folder = workspace();
    const bool ok = !folder.isEmpty() && QFileInfo(folder).isDir();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(ok);
    m_workspace->setToolTip(ok || folder.isEmpty() ? QString() : tr("%1 is not a folder").arg(QDir::toNativeSeparators(folder)));
}

} // namespace wl
