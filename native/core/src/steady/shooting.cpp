// The shooting method (see shooting.hpp).
#include "steady/shooting.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "pesim/errors.hpp"
#include "steady/gcr.hpp"
#include "steady/snapshot.hpp"
#include "transient/recorder.hpp"

namespace pesim {

namespace {

// Newton steps solve the linear system to this fraction of the residual (inexact Newton).
constexpr double kKrylovForcing = 1e-4;
// Krylov directions at most (per Newton step, and kept by the fast Jacobian).
constexpr int kMaxDirections = 200;
// The fast Jacobian keeps its products while each Newton step divides the periodicity error by
// at least 10 (a Newton step on an affine period map divides it by about 1/kKrylovForcing).
constexpr double kKeptContraction = 0.1;
// Halvings of a Newton step that does not reduce the periodicity error.
constexpr int kMaxHalvings = 4;
// Samples of the state per warm-up period, for the scales.
constexpr long kScaleSamples = 32;

class Shooter {
 public:
  Shooter(Transient& run, const SteadyPeriod& period, const SteadyOptions& options, bool hasThermal)
      : run_(run), period_(period), options_(options), temperatures_(hasThermal && options.temperatures) {}

  Result solve(const Settings& settings) {
    const auto started = std::chrono::steady_clock::now();
    warmUp();
    Snapshot x;
    read(x);
    scales_ = warmScales_;
    scales_.resize(x.unknowns.size(), 0.0);
    observe(x);
    report_.unknowns = static_cast<long>(x.unknowns.size());
    report_.method = "shooting";

    // The first period from the warm-up's end, recorded: when it already repeats its start within
    // the tolerance (a circuit settled within the warm-up), it is the settled period.
    std::unique_ptr<Recorder> recorder = makeRecorder(settings);
    Snapshot end;
    double error = evaluate(x, end, recorder.get());
    if (error <= options_.tolerance) {
      report_.converged = true;
      return finish(*recorder, x, end, started);
    }
    run_.clearWindowStatistics();  // the window statistics (losses) of that period are not kept

    Snapshot bestStart = x, bestEnd = end;
    double best = error;
    for (int iteration = 0; iteration < options_.maxIterations && error > options_.tolerance; ++iteration) {
      ++report_.iterations;
      if (options_.jacobian == SteadyJacobian::Full) krylov_.forget();
      const std::vector<double> step = newtonStep(x, end);
      // Backtracking: the full step first, halved while the periodicity error grows.
      Snapshot next, nextEnd;
      double nextError = std::numeric_limits<double>::infinity();
      for (int halving = 0; halving <= kMaxHalvings; ++halving) {
        const double lambda = std::ldexp(1.0, -halving);
        next = restart(end);
        for (std::size_t i = 0; i < step.size(); ++i) {
          next.values[x.unknowns[i]] = x.values[x.unknowns[i]] + lambda * units_[i] * step[i];
        }
        nextError = evaluate(next, nextEnd, nullptr);
        if (nextError < error) break;
      }
      // A step that contracts the error less than a Newton step should: the products kept are too
      // far from the Jacobian here (a diode that changed its conduction interval), new ones next.
      if (nextError > kKeptContraction * error) krylov_.forget();
      x = next;
      end = nextEnd;
      error = nextError;
      if (error < best) {
        best = error;
        bestStart = x;
        bestEnd = end;
      }
    }
    if (best > options_.tolerance) fallback(bestStart, bestEnd, best);
    else {
      // The period after the solved one: its start repeats the solved start in the unknowns, and
      // its held values (the last thermal solution, latched signals, device states) are those a
      // simulated period leaves, not those of the iterate Newton stepped from.
      x = restart(bestEnd);
      report_.converged = true;
    }
    if (report_.method == "transient") x = fallbackStart_;

    // The settled period, recorded from its start state.
    recorder = makeRecorder(settings);
    write(x);
    run_.runSpan(start_, period_.steps, recorder.get());
    ++report_.periods;
    Snapshot last;
    read(last);
    return finish(*recorder, x, last, started);
  }

 private:
  std::unique_ptr<Recorder> makeRecorder(const Settings& settings) const {
    return std::make_unique<Recorder>(run_.circuit().control().channels(), period_.steps, settings.dt,
                                      settings.maxPoints, 0.0, period_.period,
                                      std::function<double*(std::size_t, std::size_t)>{},
                                      geckoAxis(0.0, settings.dt, period_.steps));
  }

  // The result of the recorded period from `start` to `last`, with the report.
  Result finish(Recorder& recorder, const Snapshot& start, const Snapshot& last,
                std::chrono::steady_clock::time_point started) {
    report_.error = periodicityError(start, last);
    const double wallMs =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    Result result = run_.finishSpan(recorder, period_.steps, wallMs);
    report_.period = period_.period;
    report_.stepsPerPeriod = period_.steps;
    report_.periodStart = start_;
    if (report_.converged && report_.error > options_.tolerance) {
      // Only possible when the recorded period does not repeat the one solved (held state that
      // drifts): say so rather than claim convergence.
      report_.converged = false;
      report_.message = "the recorded period does not repeat its start to the tolerance";
    }
    result.steady = report_;
    return result;
  }

  // Periods from the start until every source repeats, and at least initPeriods (at least one: it
  // gives the companion models a history and the scales of the state variables).
  void warmUp() {
    const long periods = std::max({1L, options_.initPeriods,
                                   static_cast<long>(std::ceil(period_.from / period_.period - 1e-9))});
    const long steps = periods * period_.steps;
    const long chunk = std::max(1L, period_.steps / kScaleSamples);
    Snapshot sample;
    for (long done = 0; done < steps;) {
      const long n = std::min(chunk, steps - done);
      run_.runSpan(static_cast<double>(done) * period_.period / static_cast<double>(period_.steps), n, nullptr);
      done += n;
      read(sample);
      if (warmScales_.empty()) warmScales_.assign(sample.unknowns.size(), 0.0);
      for (std::size_t i = 0; i < sample.unknowns.size(); ++i) {
        warmScales_[i] = std::max(warmScales_[i], std::fabs(sample.values[sample.unknowns[i]]));
      }
    }
    report_.periods += periods;
    start_ = static_cast<double>(periods) * period_.period;
  }

  void read(Snapshot& s) {
    SnapshotReader reader(s);
    run_.visitState(reader, temperatures_);
  }
  void write(const Snapshot& s) {
    SnapshotWriter writer(s);
    run_.visitState(writer, temperatures_);
  }

  // The end of a period as the start of the next: its time stamps moved back by the period.
  Snapshot restart(const Snapshot& end) const {
    Snapshot s = end;
    for (std::size_t i : s.times) s.values[i] -= period_.period;
    return s;
  }

  // Simulates one period from `start` into `end` (recorded when `recorder` is given); returns the
  // periodicity error.
  double evaluate(const Snapshot& start, Snapshot& end, Recorder* recorder) {
    write(start);
    run_.runSpan(start_, period_.steps, recorder);
    ++report_.periods;
    read(end);
    observe(end);
    return periodicityError(start, end);
  }

  void observe(const Snapshot& s) {
    for (std::size_t i = 0; i < scales_.size(); ++i) {
      scales_[i] = std::max(scales_[i], std::fabs(s.values[s.unknowns[i]]));
    }
  }
  // A variable that has been exactly 0 throughout counts in its own units.
  double scale(std::size_t i) const { return scales_[i] > 0.0 ? scales_[i] : 1.0; }

  // max |Φ(x)ᵢ − xᵢ| / scaleᵢ over the unknowns.
  double periodicityError(const Snapshot& start, const Snapshot& end) const {
    double worst = 0.0;
    for (std::size_t i = 0; i < start.unknowns.size(); ++i) {
      const std::size_t k = start.unknowns[i];
      const double d = std::fabs(end.values[k] - start.values[k]) / scale(i);
      if (!std::isfinite(d)) return std::numeric_limits<double>::infinity();
      worst = std::max(worst, d);
    }
    return worst;
  }

  // The Newton step in scaled units: (M − I)·Δ = −F by GCR, with products of M from simulated
  // periods (difference quotients from the period x → end just simulated). The units are the
  // scales when the directions start afresh, kept while the fast Jacobian keeps them.
  std::vector<double> newtonStep(const Snapshot& x, const Snapshot& end) {
    const std::size_t n = x.unknowns.size();
    if (krylov_.directions() == 0) {
      units_.resize(n);
      for (std::size_t i = 0; i < n; ++i) units_[i] = scale(i);
    }
    std::vector<double> f(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t k = x.unknowns[i];
      f[i] = -(end.values[k] - x.values[k]) / units_[i];
    }
    // Φ is affine between switching events, so the difference quotient is exact there up to
    // rounding (≈ 1e-16/h of the scale); a larger h steps over events a tiny one would move.
    const double h = options_.perturbation;
    Snapshot probe, probeEnd;
    auto apply = [&](const std::vector<double>& v) {
      probe = x;
      for (std::size_t i = 0; i < n; ++i) probe.values[x.unknowns[i]] += h * units_[i] * v[i];
      write(probe);
      run_.runSpan(start_, period_.steps, nullptr);
      ++report_.periods;
      read(probeEnd);
      std::vector<double> out(n);
      for (std::size_t i = 0; i < n; ++i) {
        const std::size_t k = x.unknowns[i];
        out[i] = (probeEnd.values[k] - end.values[k]) / (h * units_[i]) - v[i];
      }
      return out;
    };
    const int room = std::min(kMaxDirections, static_cast<int>(n)) - static_cast<int>(krylov_.directions());
    return krylov_.solve(apply, f, kKrylovForcing, 0.1 * options_.tolerance, std::max(0, room)).x;
  }

  // Plain periods from the best state until the periodicity error is within the tolerance.
  void fallback(const Snapshot& start, const Snapshot& end, double error) {
    report_.method = "transient";
    report_.message = "Newton's method did not reach the tolerance in " + std::to_string(report_.iterations) +
                      " iterations (periodicity error " + std::to_string(error) + ")";
    Snapshot x = start, xEnd = end;
    long periods = 0;
    while (error > options_.tolerance && periods < options_.maxPeriods) {
      x = restart(xEnd);
      error = evaluate(x, xEnd, nullptr);
      ++periods;
    }
    fallbackStart_ = x;
    report_.converged = error <= options_.tolerance;
    report_.message += report_.converged
                           ? "; " + std::to_string(periods) + " transient periods reached it"
                           : "; " + std::to_string(periods) + " transient periods left it at " + std::to_string(error);
  }

  Transient& run_;
  SteadyPeriod period_;
  SteadyOptions options_;
  bool temperatures_;
  double start_ = 0.0;  // time at which every simulated period starts
  std::vector<double> warmScales_, scales_;
  std::vector<double> units_;  // scales of the Newton unknowns (fixed while directions are kept)
  Gcr krylov_;                 // the Jacobian's products (kept across steps by the fast Jacobian)
  Snapshot fallbackStart_;
  SteadyReport report_;
};

}  // namespace

Result shoot(Transient& run, const Settings& settings, const SteadyPeriod& period, const SteadyOptions& options,
             bool hasThermal) {
  Shooter shooter(run, period, options, hasThermal);
  return shooter.solve(settings);
}

}  // namespace pesim
