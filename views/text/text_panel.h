// The text panel: the step's HLO text (highlighted; the selected
// instruction's line marked and scrolled to), a unified diff against the
// previous step (computed off the UI thread), and for StableHLO input the
// source text. Each is a TextViewer: small texts in a QPlainTextEdit, large
// ones (the 40k-line HLO of a large module) in the LargeTextView, prepared on
// a worker so that the UI thread is never blocked by them. After Step →
// Generate kernels: the selected instruction's LLVM IR, PTX and SASS (or why
// it has none) and a Kernels tab listing every launch of the plan.
#pragma once

#include <QWidget>
#include <cstdint>
#include <memory>
#include <vector>

#include "core/session/session.h"

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTableView;

namespace hloscope::views {

class TextViewer;
class KernelsModel;
struct KernelListing;

class TextPanel : public QWidget {
  Q_OBJECT

 public:
  explicit TextPanel(QWidget* parent = nullptr);

  void setSource(const QString& text, bool show);  // StableHLO source tab
  void setStep(std::shared_ptr<const PipelineRun> run, int step);
  void setInstruction(int64_t id);
  // The LLVM IR, PTX and SASS tabs (the kernel implementing the selection);
  // an empty `name` shows `note` in all three instead. `sass` is nvdisasm's
  // text, or a comment saying why there is none.
  void setKernel(const QString& name, const QString& ir, const QString& ptx, const QString& note,
                 const QString& sass = {});
  QString irText() const;
  QString ptxText() const;
  QString sassText() const;
  TextViewer* irViewer() const { return ir_; }
  TextViewer* ptxViewer() const { return ptx_; }
  TextViewer* sassViewer() const { return sass_; }
  // The Kernels tab: every launch of the step's plan (generated kernels,
  // missing ones with their reason, custom-call / collective / host-transfer
  // thunks) and a summary line; null shows `note` instead.
  void setKernelListing(std::shared_ptr<const KernelListing> listing, const QString& note);
  KernelsModel* kernelsModel() const { return kernels_model_; }
  QString kernelsSummary() const;
  void showKernelsTab();

  QTabWidget* tabs() const { return tabs_; }
  TextViewer* hloViewer() const { return hlo_; }
  TextViewer* diffViewer() const { return diff_; }
  QString hloText() const;
  QString diffText() const;
  bool diffPending() const { return diff_pending_; }
  bool textPending() const;  // a large HLO/diff/source text still being prepared
  // The 0-based line highlighted for the selection, or -1.
  int selectedLine() const { return selected_line_; }

  // Line correspondence of the kernel shown (line info, core/codegen/
  // line_info.h): a line put under the cursor in the SASS, PTX or HLO tab
  // highlights the lines the others have for it (0-based, -1: none), and
  // correspondenceChanged says which in words.
  struct Correspondence {
    int hlo = -1, ptx = -1, sass = -1;
  };
  Correspondence correspondenceOfSass(int line) const;
  Correspondence correspondenceOfPtx(int line) const;
  Correspondence correspondenceOfHlo(int line) const;

 signals:
  void diffReady();
  // A row of the Kernels tab was clicked: the instruction it implements.
  void kernelInstructionActivated(QString name);
  // A line of one tab was matched with the others (see Correspondence).
  void correspondenceChanged(QString message);

 private:
  void startDiff();
  void showCorrespondence(const char* from, int line, const Correspondence& c);

  QTabWidget* tabs_;
  TextViewer* hlo_;
  TextViewer* diff_;
  TextViewer* source_;
  TextViewer* ir_;
  TextViewer* ptx_;
  TextViewer* sass_;
  QWidget* kernels_tab_;
  QLabel* kernels_summary_;
  QTableView* kernels_view_;
  KernelsModel* kernels_model_;
  std::shared_ptr<const PipelineRun> run_;
  int step_ = -1;
  int64_t id_ = -1;
  int selected_line_ = -1;
  quint64 generation_ = 0;
  bool diff_pending_ = false;
  // Per line of the PTX and SASS tabs (as shown, header comments included):
  // the HLO line (1-based, of the step's text) and, for SASS, the line of
  // the kernel's PTX (1-based, without the tab's header line); 0 none.
  std::vector<int> ptx_hlo_, sass_hlo_, sass_ptx_;
};

}  // namespace hloscope::views
