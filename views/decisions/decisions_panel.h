// The decisions panel: the decisions table with "this step / all steps",
// a verdict filter and a text filter; activating a row selects (and
// centres) its producer. On an XLA dump run it shows XLA's own decisions at
// the priority fusion step; with an XLA run of the same module beside ours,
// "vs XLA" shows our decisions against XLA's, disagreements first. A
// one-line note says what is shown, or why XLA's decisions are not.
#pragma once

#include <QWidget>
#include <memory>
#include <vector>

#include "views/decisions/decisions_diff_model.h"
#include "views/decisions/decisions_model.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;

namespace hloscope::views {

class DecisionsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit DecisionsPanel(QWidget* parent = nullptr);

  void setSteps(std::vector<std::shared_ptr<const Step>> steps, int current);
  void setCurrentStep(int k);
  void setAllSteps(bool all);
  void setVerdictFilter(const QString& verdict);  // "" = all
  void setTextFilter(const QString& text);
  // XLA's decisions for the run's priority fusion step (null: none).
  void setXlaDecisions(std::shared_ptr<const XlaDecisions> xla);
  // A note shown instead of the panel's own (loading, or why there are no
  // XLA decisions); "" = the panel's own.
  void setNote(const QString& note);
  QString noteText() const;
  // Our decisions against XLA's for the "vs XLA" toggle; null: not
  // available, and `why` (in the note and the toggle's tooltip) says why —
  // with no `why` the toggle is hidden.
  void setVsXla(std::shared_ptr<const DecisionsVsXla> diff, const QString& why = {});
  bool vsXlaAvailable() const;
  void setVsXlaShown(bool on);
  bool vsXlaShown() const;

  DecisionsModel* model() const { return model_; }
  DecisionsFilter* filter() const { return filter_; }
  QTableView* table() const { return table_; }
  DecisionsDiffModel* diffModel() const { return diff_model_; }
  QSortFilterProxyModel* diffFilter() const { return diff_filter_; }
  QTableView* diffTable() const { return diff_table_; }
  // Rows shown (of the vs XLA table when it is shown).
  int visibleRows() const;
  // Selects the visible row and emits producerSelected (tests, keyboard).
  void activateRow(int visible_row);

 signals:
  // The producer of the clicked decision, and its consumers.
  void producerSelected(qint64 producer, QList<qint64> consumers);

 private:
  void refresh();
  void updateNote();
  void updateCount();

  DecisionsModel* model_;
  DecisionsFilter* filter_;
  DecisionsDiffModel* diff_model_;
  QSortFilterProxyModel* diff_filter_;
  QCheckBox* all_steps_;
  QCheckBox* vs_xla_;
  QComboBox* verdict_;
  QLineEdit* text_;
  QLabel* count_;
  QLabel* note_;
  QStackedWidget* stack_;
  QTableView* table_;
  QTableView* diff_table_;
  std::vector<std::shared_ptr<const Step>> steps_;
  std::shared_ptr<const XlaDecisions> xla_;
  QString note_text_, vs_why_;
  int current_ = -1;
};

}  // namespace hloscope::views
