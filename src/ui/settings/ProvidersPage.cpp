#include "ProvidersPage.h"

#include "ProviderCheck.h"
#include "ProviderProfilesModel.h"
#include "llm/ApiKeyStore.h"
#include "llm/ModelTable.h"

#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QLocale>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

constexpr int kMaxContextWindow = 100'000'000;
constexpr int kMaxOutput = 10'000'000;

QString defaultBaseUrl(ProviderProfile::Protocol protocol)
{
    return protocol == ProviderProfile::Protocol::Anthropic ? u"https://api.anthropic.com"_s
                                                            : ProviderProfile::defaultProfile().baseUrl.toString();
}

QPushButton *pageButton(const QString &text, const QString &objectName, QWidget *parent)
{
    auto *button = new QPushButton(text, parent);
    button->setObjectName(objectName);
    // Return in any field accepts the dialog; page buttons never take the default.
    button->setAutoDefault(false);
    return button;
}

QLabel *noteLabel(const QString &objectName, QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(objectName);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    label->hide();
    return label;
}

// A form field with a note under it that takes no room while empty.
QLayout *withNote(QLayout *field, QLabel *note)
{
    auto *box = new QVBoxLayout;
    box->setSpacing(2);
    box->addLayout(field);
    box->addWidget(note);
    return box;
}

void setNote(QLabel *label, const QString &text)
{
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

} // namespace

ProvidersPage::ProvidersPage(ProviderProfilesModel *model, QWidget *parent)
    : QWidget(parent)
    , m_profiles(model)
    , m_keyStore(new ApiKeyStore(this))
    , m_testCheck(new ProviderCheck(this))
    , m_discoverCheck(new ProviderCheck(this))
{
    setObjectName(u"providersPage"_s);
    buildUi();

    connect(m_list->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &ProvidersPage::onSelectionChanged);
    connect(m_profiles, &QAbstractItemModel::modelReset, this, [this] {
        refreshSummarizerCombo();
        setCurrentRow(m_profiles->defaultRow());
    });
    connect(m_profiles, &QAbstractItemModel::rowsInserted, this, [this] {
        refreshSummarizerCombo();
        updateButtons();
    });
    connect(m_profiles, &QAbstractItemModel::rowsRemoved, this, [this] {
        refreshSummarizerCombo();
        onSelectionChanged();
    });
    connect(m_profiles, &QAbstractItemModel::dataChanged, this, [this] {
        refreshSummarizerCombo();
        updateProblem();
        updateButtons();
    });

    connect(m_keyStore, &ApiKeyStore::keyStored, this, [this](const QString &, bool ok, const QString &error) {
        if (ok) {
            m_key->clear();
            refreshKeyStatus();
        } else {
            setNote(m_keyStatus, tr("The key could not be stored: %1").arg(error));
            Q_EMIT keyStatusUpdated(m_keyStatus->text());
        }
    });

    connect(m_testCheck, &ProviderCheck::connectionSucceeded, this, [this](qint64 latencyMs, const QString &reply) {
        const QString text = reply.isEmpty()
            ? tr("Connected: the model answered in %1 ms.").arg(latencyMs)
            : tr("Connected: the model answered \u201c%1\u201d in %2 ms.").arg(reply.left(60).simplified()).arg(latencyMs);
        setNote(m_testStatus, text);
        updateButtons();
        Q_EMIT testFinished(true, text);
    });
    connect(m_testCheck, &ProviderCheck::failed, this, &ProvidersPage::showTestFailure);
    connect(m_testCheck, &ProviderCheck::cancelled, this, [this] {
        setNote(m_testStatus, tr("Test cancelled."));
        updateButtons();
        Q_EMIT testFinished(false, m_testStatus->text());
    });

    connect(m_discoverCheck, &ProviderCheck::modelsFound, this, [this](const QStringList &ids) {
        const QString current = m_modelCombo->currentText().trimmed();
        {
            const QSignalBlocker blocker(m_modelCombo);
            m_modelCombo->clear();
            m_modelCombo->addItems(ids);
            m_modelCombo->setCurrentIndex(-1);
            m_modelCombo->setEditText(current);
        }
        if (current.isEmpty() && !ids.isEmpty())
            m_modelCombo->setCurrentIndex(0);   // goes through onModelTextChanged: pre-fills the window
        QString text = tr("Models found: %1.").arg(ids.size());
        if (!current.isEmpty() && !ids.contains(current))
            text += u' ' + tr("%1 is not among them.").arg(current);
        setNote(m_discoverStatus, text);
        updateButtons();
        Q_EMIT discoveryFinished(true, text);
    });
    connect(m_discoverCheck, &ProviderCheck::failed, this, [this](const ChatError &error) {
        const QString text = tr("Could not list the models: %1").arg(error.displayText());
        setNote(m_discoverStatus, text);
        updateButtons();
        Q_EMIT discoveryFinished(false, text);
    });
    connect(m_discoverCheck, &ProviderCheck::cancelled, this, [this] {
        setNote(m_discoverStatus, tr("Discovery cancelled."));
        updateButtons();
        Q_EMIT discoveryFinished(false, m_discoverStatus->text());
    });

    refreshSummarizerCombo();
    setCurrentRow(m_profiles->defaultRow());
}

ProvidersPage::~ProvidersPage() = default;

void ProvidersPage::buildUi()
{
    auto *layout = new QHBoxLayout(this);

    // The profile list and what acts on it.
    auto *left = new QVBoxLayout;
    auto *listLabel = new QLabel(tr("Pro&files:"), this);
    m_list = new QListView(this);
    m_list->setObjectName(u"profileList"_s);
    m_list->setModel(m_profiles);
    m_list->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_list->setSelectionMode(QAbstractItemView::SingleSelection);
    m_list->setMinimumWidth(200);
    listLabel->setBuddy(m_list);
    m_add = pageButton(tr("A&dd"), u"addProfileButton"_s, this);
    m_add->setToolTip(tr("Add a profile for a local OpenAI-compatible server"));
    m_duplicate = pageButton(tr("Dupli&cate"), u"duplicateProfileButton"_s, this);
    m_remove = pageButton(tr("Remo&ve"), u"removeProfileButton"_s, this);
    m_makeDefault = pageButton(tr("Make defa&ult"), u"makeDefaultButton"_s, this);
    m_makeDefault->setToolTip(tr("New sessions use the default profile"));
    auto *listButtons = new QHBoxLayout;
    listButtons->addWidget(m_add);
    listButtons->addWidget(m_duplicate);
    listButtons->addWidget(m_remove);
    auto *summarizerLabel = new QLabel(tr("Summaries &written by:"), this);
    m_summarizer = new QComboBox(this);
    m_summarizer->setObjectName(u"summarizerCombo"_s);
    m_summarizer->setToolTip(tr("The profile that writes compaction summaries; a small, fast model is enough"));
    summarizerLabel->setBuddy(m_summarizer);
    left->addWidget(listLabel);
    left->addWidget(m_list, 1);
    left->addLayout(listButtons);
    left->addWidget(m_makeDefault);
    left->addSpacing(8);
    left->addWidget(summarizerLabel);
    left->addWidget(m_summarizer);
    layout->addLayout(left);

    // The selected profile.
    m_editor = new QWidget(this);
    m_editor->setObjectName(u"profileEditor"_s);
    auto *editor = new QVBoxLayout(m_editor);
    editor->setContentsMargins(0, 0, 0, 0);

    auto *profileBox = new QGroupBox(tr("Profile"), m_editor);
    auto *form = new QFormLayout(profileBox);
    m_name = new QLineEdit(profileBox);
    m_name->setObjectName(u"nameEdit"_s);
    form->addRow(tr("&Name:"), m_name);
    m_protocol = new QComboBox(profileBox);
    m_protocol->setObjectName(u"protocolCombo"_s);
    m_protocol->addItem(tr("OpenAI-compatible (Ollama, llama.cpp, vLLM, OpenAI)"),
                        ProviderProfile::protocolName(ProviderProfile::Protocol::OpenAiChat));
    m_protocol->addItem(tr("Anthropic Messages"), ProviderProfile::protocolName(ProviderProfile::Protocol::Anthropic));
    form->addRow(tr("&Protocol:"), m_protocol);
    m_baseUrl = new QLineEdit(profileBox);
    m_baseUrl->setObjectName(u"baseUrlEdit"_s);
    m_baseUrl->setPlaceholderText(defaultBaseUrl(ProviderProfile::Protocol::OpenAiChat));
    form->addRow(tr("&Base URL:"), m_baseUrl);

    m_modelCombo = new QComboBox(profileBox);
    m_modelCombo->setObjectName(u"modelCombo"_s);
    m_modelCombo->setEditable(true);
    m_modelCombo->setInsertPolicy(QComboBox::NoInsert);
    m_modelCombo->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_discover = pageButton(tr("D&iscover models"), u"discoverModelsButton"_s, profileBox);
    m_discover->setToolTip(tr("Ask the server which models it offers"));
    auto *modelRow = new QHBoxLayout;
    modelRow->addWidget(m_modelCombo, 1);
    modelRow->addWidget(m_discover);
    m_discoverStatus = noteLabel(u"discoverStatusLabel"_s, profileBox);
    auto *modelLabel = new QLabel(tr("&Model:"), profileBox);
    modelLabel->setBuddy(m_modelCombo);
    form->addRow(modelLabel, withNote(modelRow, m_discoverStatus));

    m_contextWindow = new QSpinBox(profileBox);
    m_contextWindow->setObjectName(u"contextWindowSpin"_s);
    m_contextWindow->setRange(0, kMaxContextWindow);
    m_contextWindow->setSingleStep(1024);
    m_contextWindow->setGroupSeparatorShown(true);
    m_contextWindow->setSuffix(tr(" tokens"));
    m_contextWindow->setSpecialValueText(tr("Unknown"));
    m_contextHint = noteLabel(u"contextHintLabel"_s, profileBox);
    auto *contextLabel = new QLabel(tr("Conte&xt window:"), profileBox);
    contextLabel->setBuddy(m_contextWindow);
    auto *contextRow = new QHBoxLayout;
    contextRow->addWidget(m_contextWindow);
    form->addRow(contextLabel, withNote(contextRow, m_contextHint));
    m_maxOutput = new QSpinBox(profileBox);
    m_maxOutput->setObjectName(u"maxOutputSpin"_s);
    m_maxOutput->setRange(0, kMaxOutput);
    m_maxOutput->setSingleStep(256);
    m_maxOutput->setGroupSeparatorShown(true);
    m_maxOutput->setSuffix(tr(" tokens"));
    m_maxOutput->setSpecialValueText(tr("Unknown (4,096 used)"));
    form->addRow(tr("Max &output:"), m_maxOutput);
    editor->addWidget(profileBox);

    auto *keyBox = new QGroupBox(tr("API key"), m_editor);
    auto *keyForm = new QFormLayout(keyBox);
    m_keySource = new QComboBox(keyBox);
    m_keySource->setObjectName(u"keySourceCombo"_s);
    m_keySource->addItem(tr("No key"), int(KeySource::None));
    m_keySource->addItem(tr("Environment variable"), int(KeySource::Environment));
    m_keySource->addItem(tr("System keyring"), int(KeySource::Keyring));
    m_keyRef = new QLineEdit(keyBox);
    m_keyRef->setObjectName(u"keyRefEdit"_s);
    m_keyRef->setToolTip(tr("The name of the environment variable or keyring entry; never the key itself"));
    auto *sourceRow = new QHBoxLayout;
    sourceRow->addWidget(m_keySource);
    sourceRow->addWidget(m_keyRef, 1);
    auto *sourceLabel = new QLabel(tr("&Key source:"), keyBox);
    sourceLabel->setBuddy(m_keySource);
    m_keyStatus = noteLabel(u"keyStatusLabel"_s, keyBox);
    keyForm->addRow(sourceLabel, withNote(sourceRow, m_keyStatus));
    m_key = new QLineEdit(keyBox);
    m_key->setObjectName(u"keyEdit"_s);
    m_key->setEchoMode(QLineEdit::Password);
    m_key->setClearButtonEnabled(true);
    m_storeKey = pageButton(tr("&Store in keyring"), u"storeKeyButton"_s, keyBox);
    auto *keyRow = new QHBoxLayout;
    keyRow->addWidget(m_key, 1);
    keyRow->addWidget(m_storeKey);
    auto *keyLabel = new QLabel(tr("API ke&y:"), keyBox);
    keyLabel->setBuddy(m_key);
    keyForm->addRow(keyLabel, keyRow);
    if (keyringAvailable()) {
        m_key->setPlaceholderText(tr("Paste a key to store it in the keyring (never in the settings file)"));
    } else {
        m_key->setPlaceholderText(tr("Paste a key to try it (kept in memory only)"));
        m_storeKey->setToolTip(tr("No system keyring is available: use an environment variable"));
    }
    editor->addWidget(keyBox);

    m_test = pageButton(tr("&Test connection"), u"testConnectionButton"_s, m_editor);
    m_test->setToolTip(tr("Send a tiny request to the model and report how it went"));
    m_test->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_testStatus = noteLabel(u"testStatusLabel"_s, m_editor);
    auto *testRow = new QHBoxLayout;
    testRow->addWidget(m_test, 0, Qt::AlignTop);
    testRow->addWidget(m_testStatus, 1);
    editor->addLayout(testRow);
    m_problem = noteLabel(u"problemLabel"_s, m_editor);
    editor->addWidget(m_problem);
    editor->addStretch(1);
    layout->addWidget(m_editor, 1);

    // Buttons that change their text while a check runs keep one width.
    for (auto [button, other] : {std::pair{m_test, tr("Cancel &test")}, std::pair{m_discover, tr("Cancel d&iscovery")}}) {
        const QString text = button->text();
        const int first = button->sizeHint().width();
        button->setText(other);
        button->setMinimumWidth(std::max(first, button->sizeHint().width()));
        button->setText(text);
    }

    connect(m_add, &QPushButton::clicked, this, [this] {
        ProviderProfile profile = ProviderProfile::defaultProfile();
        profile.name = tr("New profile");
        setCurrentRow(m_profiles->addProfile(profile));
        m_name->setFocus();
        m_name->selectAll();
    });
    connect(m_duplicate, &QPushButton::clicked, this, [this] {
        setCurrentRow(m_profiles->duplicateProfile(currentRow()));
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (m_profiles->rowCount() > 1)
            m_profiles->removeProfile(currentRow());
    });
    connect(m_makeDefault, &QPushButton::clicked, this, [this] { m_profiles->setDefaultRow(currentRow()); });
    connect(m_summarizer, &QComboBox::currentIndexChanged, this, [this](int index) {
        const int row = index <= 0 ? -1 : m_summarizer->itemData(index).toInt();
        m_summarizerIndex = row < 0 ? QPersistentModelIndex() : QPersistentModelIndex(m_profiles->index(row));
    });

    connect(m_name, &QLineEdit::textEdited, this, &ProvidersPage::commitForm);
    connect(m_baseUrl, &QLineEdit::textEdited, this, &ProvidersPage::commitForm);
    connect(m_protocol, &QComboBox::currentIndexChanged, this, &ProvidersPage::onProtocolChanged);
    connect(m_modelCombo, &QComboBox::currentTextChanged, this, &ProvidersPage::onModelTextChanged);
    connect(m_contextWindow, &QSpinBox::valueChanged, this, [this] {
        commitForm();
        updateContextHint();
    });
    connect(m_maxOutput, &QSpinBox::valueChanged, this, &ProvidersPage::commitForm);
    connect(m_keySource, &QComboBox::currentIndexChanged, this, &ProvidersPage::onKeySourceChanged);
    connect(m_keyRef, &QLineEdit::textEdited, this, &ProvidersPage::commitForm);
    connect(m_keyRef, &QLineEdit::editingFinished, this, &ProvidersPage::refreshKeyStatus);
    connect(m_key, &QLineEdit::textChanged, this, &ProvidersPage::updateButtons);
    connect(m_storeKey, &QPushButton::clicked, this, &ProvidersPage::storeKey);
    connect(m_test, &QPushButton::clicked, this, &ProvidersPage::startTest);
    connect(m_discover, &QPushButton::clicked, this, &ProvidersPage::startDiscovery);
}

bool ProvidersPage::keyringAvailable() const
{
    return m_keyStore->keychainEnabled();
}

ProvidersPage::KeySource ProvidersPage::keySourceOf(const QString &keyRef)
{
    static const QRegularExpression variableName(u"^[A-Z_][A-Z0-9_]*$"_s);
    if (keyRef.trimmed().isEmpty())
        return KeySource::None;
    return variableName.match(keyRef.trimmed()).hasMatch() ? KeySource::Environment : KeySource::Keyring;
}

QString ProvidersPage::defaultKeyringEntry(const QString &profileName)
{
    static const QRegularExpression separators(u"[^a-z0-9]+"_s);
    QString slug = profileName.toLower().replace(separators, u"-"_s);
    while (slug.startsWith(u'-'))
        slug.remove(0, 1);
    while (slug.endsWith(u'-'))
        slug.chop(1);
    return u"waterline/"_s + (slug.isEmpty() ? u"provider"_s : slug);
}

int ProvidersPage::currentRow() const
{
    return m_row;
}

void ProvidersPage::setCurrentRow(int row)
{
    if (row < 0 || row >= m_profiles->rowCount()) {
        m_list->selectionModel()->clearCurrentIndex();
        loadRow(-1);
        return;
    }
    m_list->selectionModel()->setCurrentIndex(m_profiles->index(row), QItemSelectionModel::ClearAndSelect);
    if (m_row != row)
        loadRow(row);
}

void ProvidersPage::onSelectionChanged()
{
    const QModelIndex current = m_list->selectionModel()->currentIndex();
    loadRow(current.isValid() ? current.row() : -1);
}

QString ProvidersPage::summarizerName() const
{
    return m_summarizerIndex.isValid() ? m_profiles->profile(m_summarizerIndex.row()).name : QString();
}

void ProvidersPage::setSummarizerName(const QString &name)
{
    const int row = name.isEmpty() ? -1 : m_profiles->rowOf(name);
    m_summarizerIndex = row < 0 ? QPersistentModelIndex() : QPersistentModelIndex(m_profiles->index(row));
    refreshSummarizerCombo();
}

void ProvidersPage::refreshSummarizerCombo()
{
    const QSignalBlocker blocker(m_summarizer);
    m_summarizer->clear();
    m_summarizer->addItem(tr("The default profile"), -1);
    for (int row = 0; row < m_profiles->rowCount(); ++row)
        m_summarizer->addItem(m_profiles->profile(row).name, row);
    m_summarizer->setCurrentIndex(m_summarizerIndex.isValid() ? m_summarizerIndex.row() + 1 : 0);
}

void ProvidersPage::loadRow(int row)
{
    if (m_testCheck->isRunning())
        m_testCheck->cancel();
    if (m_discoverCheck->isRunning())
        m_discoverCheck->cancel();
    m_row = row;
    const ProviderProfile p = m_profiles->profile(row);
    m_loading = true;
    m_name->setText(p.name);
    m_protocol->setCurrentIndex(p.protocol == ProviderProfile::Protocol::Anthropic ? 1 : 0);
    m_baseUrl->setText(p.baseUrl.toString());
    m_baseUrl->setPlaceholderText(defaultBaseUrl(p.protocol));
    m_modelCombo->clear();
    m_modelCombo->setEditText(p.model);
    m_contextWindow->setValue(int(std::min<qint64>(p.contextWindow, kMaxContextWindow)));
    m_maxOutput->setValue(p.maxOutputTokens);
    const KeySource source = keySourceOf(p.keyRef);
    m_keySource->setCurrentIndex(m_keySource->findData(int(source)));
    m_keyRef->setText(p.keyRef);
    m_keyRef->setEnabled(source != KeySource::None);
    m_key->clear();
    m_loading = false;
    m_previousModel = p.model;
    setNote(m_discoverStatus, QString());
    setNote(m_testStatus, QString());
    setNote(m_keyStatus, QString());
    m_editor->setEnabled(row >= 0);
    updateContextHint();
    updateProblem();
    updateButtons();
    refreshKeyStatus();
}

ProviderProfile ProvidersPage::formProfile() const
{
    ProviderProfile p = m_profiles->profile(m_row);
    p.name = m_name->text().trimmed();
    p.protocol = ProviderProfile::protocolFromName(m_protocol->currentData().toString())
                     .value_or(ProviderProfile::Protocol::OpenAiChat);
    p.baseUrl = QUrl(m_baseUrl->text().trimmed());
    p.model = m_modelCombo->currentText().trimmed();
    p.contextWindow = m_contextWindow->value();
    p.maxOutputTokens = m_maxOutput->value();
    p.keyRef = KeySource(m_keySource->currentData().toInt()) == KeySource::None ? QString() : m_keyRef->text().trimmed();
    return p;
}

void ProvidersPage::commitForm()
{
    if (m_loading || m_row < 0)
        return;
    m_profiles->setProfile(m_row, formProfile());
}

void ProvidersPage::onProtocolChanged()
{
    if (m_loading || m_row < 0)
        return;
    const ProviderProfile before = m_profiles->profile(m_row);
    const auto protocol = ProviderProfile::protocolFromName(m_protocol->currentData().toString())
                              .value_or(ProviderProfile::Protocol::OpenAiChat);
    m_loading = true;
    // Follow the protocol where the user kept the other protocol's defaults.
    const QString url = m_baseUrl->text().trimmed();
    if (url.isEmpty() || url == defaultBaseUrl(before.protocol))
        m_baseUrl->setText(defaultBaseUrl(protocol));
    m_baseUrl->setPlaceholderText(defaultBaseUrl(protocol));
    const KeySource source = KeySource(m_keySource->currentData().toInt());
    if (source == KeySource::Environment && m_keyRef->text().trimmed() == ProviderProfile::defaultKeyEnvVar(before.protocol))
        m_keyRef->setText(ProviderProfile::defaultKeyEnvVar(protocol));
    if (source == KeySource::None && protocol == ProviderProfile::Protocol::Anthropic) {
        m_keySource->setCurrentIndex(m_keySource->findData(int(KeySource::Environment)));
        m_keyRef->setText(ProviderProfile::defaultKeyEnvVar(protocol));
        m_keyRef->setEnabled(true);
    }
    m_loading = false;
    commitForm();
    refreshKeyStatus();
}

void ProvidersPage::onModelTextChanged(const QString &text)
{
    if (m_loading || m_row < 0)
        return;
    const QString model = text.trimmed();
    const auto entry = ModelTable::lookup(model);
    const auto previous = ModelTable::lookup(m_previousModel);
    // Pre-fill from the table unless the user typed a value of their own.
    const auto follow = [&](QSpinBox *spin, qint64 tableValue, std::optional<qint64> previousValue) {
        const int current = spin->value();
        const bool untouched = current == 0 || (previousValue && current == *previousValue);
        if (!untouched)
            return;
        const QSignalBlocker blocker(spin);
        spin->setValue(entry ? int(std::min<qint64>(tableValue, spin->maximum())) : 0);
    };
    follow(m_contextWindow, entry ? entry->contextWindow : 0,
           previous ? std::optional<qint64>(previous->contextWindow) : std::nullopt);
    follow(m_maxOutput, entry ? entry->maxOutputTokens : 0,
           previous ? std::optional<qint64>(previous->maxOutputTokens) : std::nullopt);
    m_previousModel = model;
    commitForm();
    updateContextHint();
}

void ProvidersPage::updateContextHint()
{
    const QString model = m_modelCombo->currentText().trimmed();
    const QLocale locale;
    // A profile that leaves the limits to the model table (0) shows the table's values in the
    // spin boxes themselves, not "Unknown".
    const auto known = ModelTable::lookup(model);
    m_contextWindow->setSpecialValueText(known ? tr("%1 (model table)").arg(locale.toString(known->contextWindow))
                                               : tr("Unknown"));
    m_maxOutput->setSpecialValueText(known ? tr("%1 (model table)").arg(locale.toString(known->maxOutputTokens))
                                           : tr("Unknown (4,096 used)"));
    if (model.isEmpty()) {
        setNote(m_contextHint, tr("Name a model to look up its context window."));
        return;
    }
    const auto entry = ModelTable::lookup(model);
    if (!entry) {
        setNote(m_contextHint, tr("%1 is not in the model table: enter its context window "
                                  "(8,192 tokens are assumed otherwise).").arg(model));
        return;
    }
    const int value = m_contextWindow->value();
    if (value == entry->contextWindow || value == 0)
        setNote(m_contextHint, tr("From the model table: %1 tokens of context, %2 of output.")
                                   .arg(locale.toString(entry->contextWindow), locale.toString(entry->maxOutputTokens)));
    else
        setNote(m_contextHint, tr("Set by hand; the model table says %1 tokens.").arg(locale.toString(entry->contextWindow)));
}

void ProvidersPage::onKeySourceChanged()
{
    if (m_loading || m_row < 0)
        return;
    const KeySource source = KeySource(m_keySource->currentData().toInt());
    const QString ref = m_keyRef->text().trimmed();
    m_loading = true;
    switch (source) {
    case KeySource::None:
        m_keyRef->clear();
        break;
    case KeySource::Environment:
        if (keySourceOf(ref) != KeySource::Environment)
            m_keyRef->setText(ProviderProfile::defaultKeyEnvVar(formProfile().protocol));
        break;
    case KeySource::Keyring:
        if (keySourceOf(ref) != KeySource::Keyring)
            m_keyRef->setText(defaultKeyringEntry(m_name->text()));
        break;
    }
    m_keyRef->setEnabled(source != KeySource::None);
    m_loading = false;
    commitForm();
    refreshKeyStatus();
}

void ProvidersPage::refreshKeyStatus()
{
    if (m_row < 0)
        return;
    const ProviderProfile profile = formProfile();
    const quint64 lookup = ++m_keyLookup;
    // A store per lookup: an old answer cannot overwrite a newer one.
    auto *store = new ApiKeyStore(this);
    store->setKeychainEnabled(m_keyStore->keychainEnabled());
    connect(store, &ApiKeyStore::keyResolved, this,
            [this, store, lookup, profile](const QString &, const ApiKeyStore::Result &result) {
                store->deleteLater();
                if (lookup != m_keyLookup)
                    return;
                const QString variable = ApiKeyStore::environmentVariableFor(profile);
                QString text;
                switch (result.source) {
                case ApiKeyStore::Source::Keychain:
                    text = tr("Key: from the system keyring (entry %1).").arg(profile.keyRef);
                    break;
                case ApiKeyStore::Source::Environment:
                    text = tr("Key: from the environment variable %1.").arg(variable);
                    break;
                case ApiKeyStore::Source::None:
                    if (profile.keyRef.isEmpty())
                        text = tr("Key: none is sent, which suits a local server.");
                    else if (keyringAvailable())
                        text = tr("Key: not set. Paste it below and store it in the system keyring, "
                                  "or set the environment variable %1 before starting Waterline.").arg(variable);
                    else
                        text = tr("Key: not set. No system keyring is available: set the environment "
                                  "variable %1 before starting Waterline.").arg(variable);
                    break;
                }
                setNote(m_keyStatus, text);
                Q_EMIT keyStatusUpdated(text);
            });
    store->lookup(profile);
}

void ProvidersPage::storeKey()
{
    const QString key = m_key->text().trimmed();
    if (key.isEmpty() || m_row < 0 || !keyringAvailable())
        return;
    if (KeySource(m_keySource->currentData().toInt()) != KeySource::Keyring)
        m_keySource->setCurrentIndex(m_keySource->findData(int(KeySource::Keyring)));
    const QString ref = m_keyRef->text().trimmed();
    setNote(m_keyStatus, tr("Storing the key in the system keyring\u2026"));
    m_keyStore->store(ref, key);
}

void ProvidersPage::startTest()
{
    if (m_testCheck->isRunning()) {
        m_testCheck->cancel();
        return;
    }
    const QString problem = m_profiles->problem(m_row);
    if (m_row < 0 || !problem.isEmpty()) {
        setNote(m_testStatus, tr("Fix the profile first: %1").arg(problem));
        Q_EMIT testFinished(false, m_testStatus->text());
        return;
    }
    const ProviderProfile profile = formProfile();
    setNote(m_testStatus, tr("Sending a short request to %1\u2026").arg(profile.model));
    m_testCheck->testConnection(profile, m_key->text());
    updateButtons();
}

void ProvidersPage::showTestFailure(const ChatError &error)
{
    const QString text = tr("Failed: %1").arg(error.displayText());
    setNote(m_testStatus, text);
    updateButtons();
    Q_EMIT testFinished(false, text);
}

void ProvidersPage::startDiscovery()
{
    if (m_discoverCheck->isRunning()) {
        m_discoverCheck->cancel();
        return;
    }
    const ProviderProfile profile = formProfile();
    if (!profile.baseUrl.isValid() || profile.baseUrl.host().isEmpty()) {
        setNote(m_discoverStatus, tr("Enter the server's base URL first."));
        Q_EMIT discoveryFinished(false, m_discoverStatus->text());
        return;
    }
    setNote(m_discoverStatus, tr("Asking the server for its models\u2026"));
    m_discoverCheck->discoverModels(profile, m_key->text());
    updateButtons();
}

void ProvidersPage::updateProblem()
{
    const QString problem = m_profiles->problem(m_row);
    setNote(m_problem, problem.isEmpty() ? QString() : tr("This profile cannot be saved yet: %1").arg(problem));
    m_problem->setVisible(!problem.isEmpty());
}

void ProvidersPage::updateButtons()
{
    const bool hasRow = m_row >= 0;
    m_duplicate->setEnabled(hasRow);
    m_remove->setEnabled(hasRow && m_profiles->rowCount() > 1);
    m_makeDefault->setEnabled(hasRow && m_row != m_profiles->defaultRow());
    m_test->setText(m_testCheck->isRunning() ? tr("Cancel &test") : tr("&Test connection"));
    m_discover->setText(m_discoverCheck->isRunning() ? tr("Cancel d&iscovery") : tr("D&iscover models"));
    m_storeKey->setEnabled(hasRow && keyringAvailable() && !m_key->text().trimmed().isEmpty());
}

bool ProvidersPage::isTesting() const
{
    return m_testCheck->isRunning();
}

bool ProvidersPage::isDiscovering() const
{
    return m_discoverCheck->isRunning();
}

} // namespace wl
