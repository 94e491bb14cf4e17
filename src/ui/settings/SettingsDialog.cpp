#include "SettingsDialog.h"

#include "PricesPage.h"

#include "AgentPage.h"
#include "AppearancePage.h"
#include "CompactionPage.h"
#include "ProviderProfilesModel.h"
#include "ProvidersPage.h"
#include "ThemeManager.h"
#include "tools/ApprovalPolicy.h"

#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollArea>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

QScrollArea *scrolled(QWidget *page, QWidget *parent)
{
    auto *area = new QScrollArea(parent);
    area->setObjectName(page->objectName() + u"Scroll"_s);
    area->setWidget(page);
    area->setWidgetResizable(true);
    area->setFrameShape(QFrame::NoFrame);
    return area;
}

} // namespace

SettingsDialog::SettingsDialog(AppSettings *settings, QWidget *parent)
    : QDialog(parent)
    , m_settings(settings)
    , m_profiles(new ProviderProfilesModel(this))
{
    setObjectName(u"settingsDialog"_s);
    setWindowTitle(tr("Waterline Settings"));

    m_pageList = new QListWidget(this);
    m_pageList->setObjectName(u"settingsPageList"_s);
    m_pageList->addItems({tr("Providers"), tr("Compaction"), tr("Agent"), tr("Appearance"), tr("Prices")});
    m_pageList->setAccessibleName(tr("Settings pages"));
    m_pageList->setFixedWidth(m_pageList->sizeHintForColumn(0) + 40);

    m_providersPage = new ProvidersPage(m_profiles, this);
    m_compactionPage = new CompactionPage(this);
    m_agentPage = new AgentPage(this);
    m_appearancePage = new AppearancePage(this);
    m_pricesPage = new PricesPage(this);
    m_stack = new QStackedWidget(this);
    m_stack->setObjectName(u"settingsPages"_s);
    m_stack->addWidget(m_providersPage);
    m_stack->addWidget(scrolled(m_compactionPage, m_stack));
    m_stack->addWidget(scrolled(m_agentPage, m_stack));
    m_stack->addWidget(scrolled(m_appearancePage, m_stack));
    m_stack->addWidget(m_pricesPage);

    m_error = new QLabel(this);
    m_error->setObjectName(u"settingsErrorLabel"_s);
    m_error->setWordWrap(true);
    m_error->hide();

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel | QDialogButtonBox::Apply, this);
    m_buttons->setObjectName(u"settingsButtons"_s);
    m_buttons->button(QDialogButtonBox::Ok)->setDefault(true);

    auto *pages = new QHBoxLayout;
    pages->addWidget(m_pageList);
    pages->addWidget(m_stack, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(pages, 1);
    layout->addWidget(m_error);
    layout->addWidget(m_buttons);

    connect(m_pageList, &QListWidget::currentRowChanged, m_stack, &QStackedWidget::setCurrentIndex);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);
    connect(m_appearancePage, &AppearancePage::themeChosen, this, [this](AppSettings::Theme theme) {
        if (m_themeManager)
            m_themeManager->apply(theme);
    });

    load();
    m_pageList->setCurrentRow(0);
    resize(900, 640);
}

SettingsDialog::~SettingsDialog() = default;

void SettingsDialog::setThemeManager(ThemeManager *themeManager)
{
    m_themeManager = themeManager;
}

void SettingsDialog::load()
{
    if (!m_settings)
        return;
    m_profiles->setProfiles(m_settings->profiles(), m_settings->defaultProfileName());
    m_providersPage->setSummarizerName(m_settings->summarizerProfileName());
    m_compactionPage->setPolicy(m_settings->compactionPolicy());
    m_agentPage->setApprovalPolicy(m_settings->approvalPolicy());
    m_agentPage->setTurnLimit(m_settings->turnLimit());
    m_appearancePage->setTheme(m_settings->theme());
    m_appearancePage->setLanguage(m_settings->language());
    m_pricesPage->setOverrides(m_settings->priceOverrides());
    const QStringList loadErrors = m_settings->profileLoadErrors();
    if (!loadErrors.isEmpty()) {
        m_error->setText(tr("Some stored provider profiles could not be read and are not shown; they are kept "
                            "under providers/unreadable when you save. %1").arg(loadErrors.join(u' ')));
        m_error->show();
    }
}

void SettingsDialog::showPage(Page page)
{
    m_pageList->setCurrentRow(int(page));
}

SettingsDialog::Page SettingsDialog::currentPage() const
{
    return Page(m_stack->currentIndex());
}

QString SettingsDialog::lastError() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

bool SettingsDialog::apply()
{
    if (!m_settings)
        return false;
    const auto refuse = [this](Page page, const QString &text) {
        showPage(page);
        m_error->setText(text);
        m_error->show();
        return false;
    };
    int badRow = -1;
    const QString profileProblem = m_profiles->firstProblem(&badRow);
    if (!profileProblem.isEmpty()) {
        m_providersPage->setCurrentRow(badRow);
        return refuse(Page::Providers, tr("Not saved. %1").arg(profileProblem));
    }
    const CompactionPolicy policy = m_compactionPage->policy();
    if (const QString problem = policy.validate(); !problem.isEmpty())
        return refuse(Page::Compaction, tr("Not saved. The compaction policy is not valid: %1").arg(problem));

    QString error;
    if (!m_settings->setProfiles(m_profiles->profiles(), &error))
        return refuse(Page::Providers, tr("Not saved. %1").arg(error));
    m_settings->setDefaultProfileName(m_profiles->defaultName());
    m_settings->setSummarizerProfileName(m_providersPage->summarizerName());
    m_settings->setCompactionPolicy(policy);
    m_settings->setApprovalPolicy(m_agentPage->approvalPolicy());
    m_settings->setTurnLimit(m_agentPage->turnLimit());
    m_settings->setTheme(m_appearancePage->theme());
    m_settings->setLanguage(m_appearancePage->language());
    m_settings->setPriceOverrides(m_pricesPage->overrides());
    m_settings->sync();
    m_error->hide();
    return true;
}

void SettingsDialog::accept()
{
    if (apply())
        QDialog::accept();
}

void SettingsDialog::reject()
{
    // Undo a theme preview that was not saved.
    if (m_themeManager && m_settings && m_themeManager->current() != m_settings->theme())
        m_themeManager->apply(m_settings->theme());
    QDialog::reject();
}

} // namespace wl
