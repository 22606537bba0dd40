// TF: a rational transfer function G(s) = N(s)/D(s) (GeckoCIRCUITS ReglerTransferFunction, control
// typ 74). The parameters `num` and `den` list the coefficients of s⁰, s¹, s², … (ascending powers,
// as GeckoCIRCUITS stores them); as in GeckoCIRCUITS (StateSpaceCalculator) the degree of N may
// exceed that of D by at most 2. With D(s) made monic (a_n = 1), N = Q·D + R (polynomial division,
// deg R < n, Q = q₀ + q₁·s + q₂·s²); R/D is realised in controllable canonical form:
//   w⁽ⁿ⁾ = u − a₀·w − a₁·w' − … − aₙ₋₁·w⁽ⁿ⁻¹⁾,   state z = (w, w', …, w⁽ⁿ⁻¹⁾),
//   y = Σ rᵢ·zᵢ + q₀·u + q₁·u' + q₂·u'',
// integrated with the trapezoidal rule at the engine step, input included (the bilinear/Tustin
// transform, as PT1 and PI): (I − h/2·A)·z(n) = (I + h/2·A)·z(n−1) + h/2·B·(u(n) + u(n−1)).
// u' and u'' are backward differences, (u(n) − u(n−1))/h and (u(n) − 2u(n−1) + u(n−2))/h²
// (GeckoCIRCUITS divides the second difference by h only), with the input history starting at the
// first input, so that a constant input has no derivative. The state starts at zero.
// With GeckoCIRCUITS' timing the step is its StateSpaceCalculator's (checked by running it): the
// input enters with the present value only, h·B·u(n) instead of h/2·B·(u(n) + u(n−1)), the state is
// stepped already at t = 0, and the second difference is divided by h.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "control/block.hpp"
#include "pesim/errors.hpp"

namespace pesim {

namespace {

using Matrix = std::vector<std::vector<double>>;

// Solves m·x = rhs for every column of rhs (Gaussian elimination with partial pivoting); m is
// small (the order of the transfer function). Returns false when m is singular.
bool solveInPlace(Matrix m, Matrix& rhs) {
  const std::size_t n = m.size();
  const std::size_t cols = rhs.empty() ? 0 : rhs[0].size();
  for (std::size_t k = 0; k < n; ++k) {
    std::size_t pivot = k;
    for (std::size_t r = k + 1; r < n; ++r) {
      if (std::abs(m[r][k]) > std::abs(m[pivot][k])) pivot = r;
    }
    if (m[pivot][k] == 0.0) return false;
    std::swap(m[k], m[pivot]);
    std::swap(rhs[k], rhs[pivot]);
    for (std::size_t r = k + 1; r < n; ++r) {
      double f = m[r][k] / m[k][k];
      for (std::size_t c = k; c < n; ++c) m[r][c] -= f * m[k][c];
      for (std::size_t c = 0; c < cols; ++c) rhs[r][c] -= f * rhs[k][c];
    }
  }
  for (std::size_t k = n; k-- > 0;) {
    for (std::size_t c = 0; c < cols; ++c) {
      double v = rhs[k][c];
      for (std::size_t j = k + 1; j < n; ++j) v -= m[k][j] * rhs[j][c];
      rhs[k][c] = v / m[k][k];
    }
  }
  return true;
}

// Coefficients without the vanishing highest powers.
std::vector<double> trimmed(std::vector<double> coefficients) {
  while (!coefficients.empty() && coefficients.back() == 0.0) coefficients.pop_back();
  return coefficients;
}

class TransferFunction : public Block {
 public:
  TransferFunction(std::string name, std::vector<int> inputs, std::vector<int> outputs,
                   std::vector<double> monicDen, std::vector<double> remainder, std::vector<double> quotient, bool gecko)
      : Block(std::move(name), std::move(inputs), std::move(outputs)),
        a_(std::move(monicDen)), c_(std::move(remainder)), z_(a_.size(), 0.0), next_(a_.size()), gecko_(gecko) {
    quotient.resize(3, 0.0);
    q0_ = quotient[0];
    q1_ = quotient[1];
    q2_ = quotient[2];
  }

  void evaluate(ControlContext& ctx) override {
    double u = in(ctx, 0);
    const std::size_t n = z_.size();
    if ((!ctx.initial || gecko_) && n > 0) {
      if (ctx.dt != h_) discretise(ctx.dt);
      const double inputSum = gecko_ ? 2.0 * u : u + uPrev_;
      for (std::size_t i = 0; i < n; ++i) {
        double v = gamma_[i] * inputSum;
        for (std::size_t j = 0; j < n; ++j) v += phi_[i][j] * z_[j];
        next_[i] = v;
      }
      z_.swap(next_);
    }
    if (ctx.initial) uPrev_ = uPrev2_ = u;
    double y = q0_ * u;
    if (!ctx.initial) {
      const double secondScale = gecko_ ? ctx.dt : ctx.dt * ctx.dt;
      y += q1_ * (u - uPrev_) / ctx.dt + q2_ * (u - 2.0 * uPrev_ + uPrev2_) / secondScale;
    }
    uPrev2_ = uPrev_;
    uPrev_ = u;
    for (std::size_t i = 0; i < n; ++i) y += c_[i] * z_[i];
    out(ctx, y);
  }
  void visitState(StateVisitor& visitor) override {
    for (double& z : z_) visitor.real(z);
    visitor.real(uPrev_);
    visitor.real(uPrev2_);
  }

 private:
  // Φ = (I − h/2·A)⁻¹·(I + h/2·A) and Γ = (I − h/2·A)⁻¹·B·h/2 for step h.
  void discretise(double h) {
    const std::size_t n = a_.size();
    if (n == 0) return;
    Matrix lhs(n, std::vector<double>(n, 0.0));
    Matrix phi(n, std::vector<double>(n, 0.0));
    Matrix gamma(n, std::vector<double>(1, 0.0));
    for (std::size_t i = 0; i < n; ++i) {
      lhs[i][i] = 1.0;
      phi[i][i] = 1.0;
      if (i + 1 < n) {  // z_i' = z_{i+1}
        lhs[i][i + 1] -= h / 2.0;
        phi[i][i + 1] += h / 2.0;
      }
    }
    for (std::size_t j = 0; j < n; ++j) {  // z_{n−1}' = −Σ a_j·z_j + u
      lhs[n - 1][j] += h / 2.0 * a_[j];
      phi[n - 1][j] -= h / 2.0 * a_[j];
    }
    gamma[n - 1][0] = h / 2.0;
    if (!solveInPlace(lhs, phi) || !solveInPlace(lhs, gamma)) {
      throw Error(ErrorCode::ParameterOutOfRange,
                  name() + ": the transfer function has a pole at s = 2/dt, where the trapezoidal step is singular; "
                           "change dt or the denominator 'den'",
                  name());
    }
    phi_ = std::move(phi);
    gamma_.assign(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) gamma_[i] = gamma[i][0];
    h_ = h;
  }

  std::vector<double> a_, c_;
  double q0_, q1_, q2_;
  std::vector<double> z_, next_;
  Matrix phi_;
  std::vector<double> gamma_;
  double h_ = -1.0;
  double uPrev_ = 0.0, uPrev2_ = 0.0;
  bool gecko_;
};

}  // namespace

BlockPtr makeTransferFunction(const std::string& name, const Params& p, std::vector<int> inputs,
                              std::vector<int> outputs, Timing timing) {
  std::vector<double> num = trimmed(p.array("num"));
  std::vector<double> den = trimmed(p.array("den"));
  if (den.empty()) p.outOfRange("den", "a list of coefficients (s^0, s^1, ...) that are not all zero");
  if (num.size() > den.size() + 2) {
    p.outOfRange("num", "of degree at most that of 'den' + 2 (" + std::to_string(den.size() + 1) + "), got degree " +
                            std::to_string(num.size() - 1));
  }
  const std::size_t n = den.size() - 1;
  const double lead = den[n];
  std::vector<double> a(n + 1), r(std::max(num.size(), n));
  for (std::size_t i = 0; i <= n; ++i) a[i] = den[i] / lead;
  for (std::size_t i = 0; i < num.size(); ++i) r[i] = num[i] / lead;
  // Long division by the monic a, from the highest power down: r becomes the remainder.
  std::vector<double> quotient(num.size() > n ? num.size() - n : 0, 0.0);
  for (std::size_t k = quotient.size(); k-- > 0;) {
    quotient[k] = r[k + n];
    for (std::size_t j = 0; j <= n; ++j) r[k + j] -= quotient[k] * a[j];
  }
  a.resize(n);
  r.resize(n);
  return std::make_unique<TransferFunction>(name, std::move(inputs), std::move(outputs), std::move(a), std::move(r),
                                            std::move(quotient), timing == Timing::Gecko);
}

}  // namespace pesim
