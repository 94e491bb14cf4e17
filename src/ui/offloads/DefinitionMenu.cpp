#include "offloads/DefinitionMenu.h"

#include "common/Highlighting.h"

#include <KSyntaxHighlighting/Definition>
#include <KSyntaxHighlighting/Repository>

#include <QLineEdit>
#include <QWidgetAction>

#include <algorithm>
#include <map>

using namespace Qt::StringLiterals;
namespace HL = wl::Highlighting;

namespace wl {

namespace {

// How well a definition matches a search: 0 the name starts with it, 1 an extension is it, 2 the
// name contains it; -1 not at all.
int matchRank(const KSyntaxHighlighting::Definition &def, const QString &needle)
{
    const QString translated = def.translatedName();
    if (translated.startsWith(needle, Qt::CaseInsensitive) || def.name().startsWith(needle, Qt::CaseInsensitive))
        return 0;
    const QString pattern = needle.startsWith(u'.') ? QString(u'*' + needle) : QString(u"*."_s + needle);
    const auto extensions = def.extensions();
    for (const QString &extension : extensions) {
        if (extension.compare(pattern, Qt::CaseInsensitive) == 0)
            return 1;
    }
    if (translated.contains(needle, Qt::CaseInsensitive) || def.name().contains(needle, Qt::CaseInsensitive))
        return 2;
    const auto alternatives = def.alternativeNames();
    for (const QString &alternative : alternatives) {
        if (alternative.contains(needle, Qt::CaseInsensitive))
            return 2;
    }
    return -1;
}

} // namespace

DefinitionMenu::DefinitionMenu(QWidget *parent)
    : QMenu(parent)
    , m_search(new QLineEdit(this))
    , m_searchAction(new QWidgetAction(this))
{
    setObjectName(u"definitionMenu"_s);
    m_search->setObjectName(u"definitionSearch"_s);
    m_search->setPlaceholderText(tr("Search languages"));
    m_search->setClearButtonEnabled(true);
    m_searchAction->setDefaultWidget(m_search);
    connect(m_search, &QLineEdit::textChanged, this, &DefinitionMenu::applyFilter);
    connect(m_search, &QLineEdit::returnPressed, this, &DefinitionMenu::chooseFirstMatch);
    connect(this, &QMenu::aboutToShow, this, [this] {
        build();
        m_search->clear();
    });
}

void DefinitionMenu::showEvent(QShowEvent *event)
{
    QMenu::showEvent(event);
    // Typing goes to the search field at once; the arrow keys still walk the menu.
    setActiveAction(m_searchAction);
    m_search->setFocus(Qt::PopupFocusReason);
}

void DefinitionMenu::setCurrent(const QString &overrideName, const QString &guessed)
{
    m_override = overrideName;
    m_guessed = guessed;
    updateChecks();
}

void DefinitionMenu::setFilterText(const QString &text)
{
    build();
    m_search->setText(text);
}

QStringList DefinitionMenu::matches() const
{
    return m_matches;
}

void DefinitionMenu::build()
{
    if (m_built)
        return;
    m_built = true;
    addAction(m_searchAction);
    m_resultsEnd = addSeparator();
    m_resultsEnd->setVisible(false);
    m_automatic = addChoice(this, tr("Automatic"), QString());
    addSeparator();
    addChoice(this, tr("None (plain text)"), u"None"_s);

    // Sections in alphabetical order, each a submenu of its definitions.
    std::map<QString, std::map<QString, QString>> sections; // section -> sort key -> name
    const auto definitions = HL::repository().definitions();
    for (const auto &def : definitions) {
        if (def.isHidden() || def.section().isEmpty())
            continue;
        sections[def.translatedSection()][def.translatedName().toCaseFolded() + u'\n' + def.name()] = def.name();
    }
    for (const auto &[section, names] : sections) {
        QMenu *sub = addMenu(section);
        sub->setObjectName(u"definitionSection:"_s + section);
        m_sectionActions.append(sub->menuAction());
        for (const auto &[key, name] : names)
            addChoice(sub, HL::repository().definitionForName(name).translatedName(), name);
    }
    updateChecks();
}

QAction *DefinitionMenu::addChoice(QMenu *menu, const QString &label, const QString &name, QAction *before)
{
    auto *action = new QAction(label, menu);
    action->setCheckable(true);
    action->setData(name);
    menu->insertAction(before, action);
    connect(action, &QAction::triggered, this, [this, name] {
        m_override = name;
        updateChecks();
        Q_EMIT definitionChosen(name);
    });
    return action;
}

void DefinitionMenu::applyFilter()
{
    qDeleteAll(m_results);
    m_results.clear();
    m_matches.clear();
    const QString needle = m_search->text().trimmed();
    const bool searching = !needle.isEmpty();
    for (QAction *section : std::as_const(m_sectionActions))
        section->setVisible(!searching);
    m_resultsEnd->setVisible(searching);
    if (!searching)
        return;

    struct Match
    {
        int rank;
        QString key;
        QString name;
    };
    QList<Match> found;
    const auto definitions = HL::repository().definitions();
    for (const auto &def : definitions) {
        if (def.isHidden())
            continue;
        const int rank = matchRank(def, needle);
        if (rank >= 0)
            found.append({rank, def.translatedName().toCaseFolded(), def.name()});
    }
    std::sort(found.begin(), found.end(), [](const Match &a, const Match &b) {
        return a.rank != b.rank ? a.rank < b.rank : a.key < b.key;
    });
    for (const Match &m : std::as_const(found)) {
        if (m_matches.size() == kMaxMatches)
            break;
        m_matches.append(m.name);
        m_results.append(addChoice(this, HL::repository().definitionForName(m.name).translatedName(), m.name, m_resultsEnd));
    }
    if (found.isEmpty() || found.size() > kMaxMatches) {
        auto *note = new QAction(found.isEmpty() ? tr("No language matches")
                                                 : tr("%n more: type more letters", nullptr, int(found.size() - kMaxMatches)),
                                 this);
        note->setEnabled(false);
        insertAction(m_resultsEnd, note);
        m_results.append(note);
    }
    updateChecks();
}

void DefinitionMenu::chooseFirstMatch()
{
    if (m_results.isEmpty() || !m_results.front()->isEnabled())
        return;
    QAction *first = m_results.front();
    hide();
    first->trigger();
}

void DefinitionMenu::updateChecks()
{
    if (!m_built)
        return;
    const auto actions = findChildren<QAction *>();
    for (QAction *action : actions) {
        if (!action->isCheckable())
            continue;
        action->setChecked(action->data().toString() == m_override);
    }
    m_automatic->setText(m_guessed.isEmpty() ? tr("Automatic") : tr("Automatic (%1)").arg(m_guessed));
}

} // namespace wl
