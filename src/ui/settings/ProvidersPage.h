#pragma once

#include "llm/ProviderProfile.h"

#include <QPersistentModelIndex>
#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QListView;
class QPushButton;
class QSpinBox;

namespace wl {

class ApiKeyStore;
class ProviderCheck;
class ProviderProfilesModel;
struct ChatError;

// The Providers page of the settings dialog: the profile list (add,
// duplicate, remove, make default), the editor of the selected profile with
// "Discover models" and "Test connection", where its API key comes from,
// and which profile writes compaction summaries. Edits go to the model at
// once; the dialog saves the model when accepted.
class ProvidersPage : public QWidget
{
    Q_OBJECT

public:
    enum class KeySource { None, Environment, Keyring };
    Q_ENUM(KeySource)

    explicit ProvidersPage(ProviderProfilesModel *model, QWidget *parent = nullptr);
    ~ProvidersPage() override;

    int currentRow() const;
    void setCurrentRow(int row);

    // Empty: the default profile writes summaries.
    QString summarizerName() const;
    void setSummarizerName(const QString &name);

    // Keychain use (on when compiled in, unless WATERLINE_NO_KEYCHAIN=1).
    bool keyringAvailable() const;

    static KeySource keySourceOf(const QString &keyRef);
    // The keychain entry a profile gets by default: "waterline/<name in lower case, dashes>".
    static QString defaultKeyringEntry(const QString &profileName);

    // Widgets the tests drive (all also carry object names).
    QListView *profileList() const { return m_list; }
    QLineEdit *nameEdit() const { return m_name; }
    QComboBox *protocolCombo() const { return m_protocol; }
    QLineEdit *baseUrlEdit() const { return m_baseUrl; }
    QComboBox *modelCombo() const { return m_modelCombo; }
    QSpinBox *contextWindowSpin() const { return m_contextWindow; }
    QSpinBox *maxOutputSpin() const { return m_maxOutput; }
    QComboBox *keySourceCombo() const { return m_keySource; }
    QLineEdit *keyRefEdit() const { return m_keyRef; }
    QLineEdit *keyEdit() const { return m_key; }
    QLabel *keyStatusLabel() const { return m_keyStatus; }
    QPushButton *addButton() const { return m_add; }
    QPushButton *duplicateButton() const { return m_duplicate; }
    QPushButton *removeButton() const { return m_remove; }
    QPushButton *makeDefaultButton() const { return m_makeDefault; }
    QPushButton *discoverButton() const { return m_discover; }
    QPushButton *testButton() const { return m_test; }
    QPushButton *storeKeyButton() const { return m_storeKey; }
    QLabel *discoverStatusLabel() const { return m_discoverStatus; }
    QLabel *testStatusLabel() const { return m_testStatus; }
    QLabel *contextHintLabel() const { return m_contextHint; }
    QLabel *problemLabel() const { return m_problem; }
    QComboBox *summarizerCombo() const { return m_summarizer; }
    bool isTesting() const;
    bool isDiscovering() const;

Q_SIGNALS:
    // After each finished key lookup (tests wait on it); `text` is what the label shows.
    void keyStatusUpdated(const QString &text);
    void testFinished(bool ok, const QString &text);
    void discoveryFinished(bool ok, const QString &text);

private:
    void buildUi();
    void loadRow(int row);
    void commitForm();
    ProviderProfile formProfile() const;
    void onSelectionChanged();
    void onProtocolChanged();
    void onModelTextChanged(const QString &model);
    void onKeySourceChanged();
    void updateButtons();
    void updateProblem();
    void updateContextHint();
    void refreshKeyStatus();
    void refreshSummarizerCombo();
    void startTest();
    void startDiscovery();
    void storeKey();
    void showTestFailure(const ChatError &error);

    ProviderProfilesModel *m_profiles = nullptr;
    ApiKeyStore *m_keyStore = nullptr;
    ProviderCheck *m_testCheck = nullptr;
    ProviderCheck *m_discoverCheck = nullptr;
    QPersistentModelIndex m_summarizerIndex;
    int m_row = -1;
    bool m_loading = false;
    quint64 m_keyLookup = 0;
    QString m_previousModel;   // the model whose table values the spin boxes may hold

    QListView *m_list = nullptr;
    QPushButton *m_add = nullptr;
    QPushButton *m_duplicate = nullptr;
    QPushButton *m_remove = nullptr;
    QPushButton *m_makeDefault = nullptr;
    QWidget *m_editor = nullptr;
    QLineEdit *m_name = nullptr;
    QComboBox *m_protocol = nullptr;
    QLineEdit *m_baseUrl = nullptr;
    QComboBox *m_modelCombo = nullptr;
    QPushButton *m_discover = nullptr;
    QLabel *m_discoverStatus = nullptr;
    QSpinBox *m_contextWindow = nullptr;
    QLabel *m_contextHint = nullptr;
    QSpinBox *m_maxOutput = nullptr;
    QComboBox *m_keySource = nullptr;
    QLineEdit *m_keyRef = nullptr;
    QLabel *m_keyStatus = nullptr;
    QLineEdit *m_key = nullptr;
    QPushButton *m_storeKey = nullptr;
    QPushButton *m_test = nullptr;
    QLabel *m_testStatus = nullptr;
    QLabel *m_problem = nullptr;
    QComboBox *m_summarizer = nullptr;
};

} // namespace wl
