#pragma once

#include <QMenu>

class QLineEdit;
class QWidgetAction;

namespace wl {

// The highlighting menu of the offload viewer: a search field that filters the languages as you type
// (by name or file extension; Enter takes the first match), "Automatic" naming the guess, "None",
// and every definition of the repository in a submenu per section. Built on first use.
class DefinitionMenu : public QMenu
{
    Q_OBJECT
public:
    // At most this many matches are listed while searching; more asks for more letters.
    static constexpr int kMaxMatches = 30;

    explicit DefinitionMenu(QWidget *parent = nullptr);

    // Fills the menu from the repository; done on first show, once.
    void build();

    // The user's choice (empty: automatic) and the guess: which item is checked, what "Automatic" says.
    void setCurrent(const QString &overrideName, const QString &guessed);

    QLineEdit *searchField() const { return m_search; }
    void setFilterText(const QString &text);
    // The definition names listed for the current search, best first (empty when not searching).
    QStringList matches() const;

Q_SIGNALS:
    void definitionChosen(const QString &name); // empty: automatic

protected:
    void showEvent(QShowEvent *event) override;

private:
    void applyFilter();
    void chooseFirstMatch();
    QAction *addChoice(QMenu *menu, const QString &label, const QString &name, QAction *before = nullptr);
    void updateChecks();

    QLineEdit *m_search;
    QWidgetAction *m_searchAction;
    QAction *m_automatic = nullptr;
    QAction *m_resultsEnd = nullptr;   // separator after the matches
    QList<QAction *> m_sectionActions; // the submenus' actions, hidden while searching
    QList<QAction *> m_results;        // this search's matches (and the "more" note)
    QStringList m_matches;
    QString m_override;
    QString m_guessed;
    bool m_built = false;
};

} // namespace wl
