#pragma once

#include "settings/AppSettings.h"

#include <QDialog>
#include <QPointer>

class QDialogButtonBox;
class QLabel;
class QListWidget;
class QStackedWidget;

namespace wl {

class AgentPage;
class AppearancePage;
class PricesPage;
class CompactionPage;
class ProviderProfilesModel;
class ProvidersPage;
class ThemeManager;

// Settings > Preferences: a list of pages on the left (Providers,
// Compaction, Agent, Appearance), the page on the right, OK / Cancel /
// Apply below. Pages edit copies; OK and Apply validate everything and write
// it to AppSettings (a page with a problem is shown and nothing is written);
// Cancel and Esc drop the edits and undo a theme preview.
class SettingsDialog : public QDialog
{
    Q_OBJECT

public:
    enum class Page { Providers, Compaction, Agent, Appearance, Prices };
    Q_ENUM(Page)

    explicit SettingsDialog(AppSettings *settings, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    // Previews the theme live while the dialog is open (optional).
    void setThemeManager(ThemeManager *themeManager);

    void showPage(Page page);
    Page currentPage() const;

    // Validates and writes every page; false (and the page with the problem shown) when something is wrong.
    bool apply();
    QString lastError() const;

    void accept() override;
    void reject() override;

    ProviderProfilesModel *profilesModel() const { return m_profiles; }
    ProvidersPage *providersPage() const { return m_providersPage; }
    CompactionPage *compactionPage() const { return m_compactionPage; }
    AgentPage *agentPage() const { return m_agentPage; }
    AppearancePage *appearancePage() const { return m_appearancePage; }
    PricesPage *pricesPage() const { return m_pricesPage; }
    QDialogButtonBox *buttonBox() const { return m_buttons; }

private:
    void load();

    QPointer<AppSettings> m_settings;
    QPointer<ThemeManager> m_themeManager;
    ProviderProfilesModel *m_profiles = nullptr;
    QListWidget *m_pageList = nullptr;
    QStackedWidget *m_stack = nullptr;
    ProvidersPage *m_providersPage = nullptr;
    CompactionPage *m_compactionPage = nullptr;
    AgentPage *m_agentPage = nullptr;
    AppearancePage *m_appearancePage = nullptr;
    PricesPage *m_pricesPage = nullptr;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace wl
