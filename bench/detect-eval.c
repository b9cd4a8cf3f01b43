/* Scores assay's change-point detector on labelled synthetic series, next
 * to Apache Otava's algorithm (assay's otava-compat flavour) as the baseline.
 * Built and run by bench/detect-eval.sh; prints one table per method and a
 * summary against the targets of issue 6.
 *
 * Series: n in {50, 200, 1000}; noise Gaussian at 0.5/2/5% CV, heavy-tailed
 * (Student t, 3 df) and AR(1) (phi 0.5), both at 2% CV; 0-5 steps of 1-20%
 * up or down at least 20 points apart and from the ends; traps that must not
 * fire: one 8-sigma single-point spike and one A->B->A excursion (3 points,
 * 5 sigma) per series, away from the steps. Matching uses a 5-point margin.
 * Pure-noise series (no steps, no traps) give the false alarm figures.
 * Detection delay: a step at point 150 of a Gaussian 2% series, fed one
 * point at a time until a change point appears within the margin. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "assay/detect.h"
#include "bench_rng.h"

/* Student t with 3 df, scaled to unit variance (its variance is 3). */
static double student3(void)
{
	double z = gauss(), c = 0;
	for (int i = 0; i < 3; i++) {
		double g = gauss();
		c += g * g;
	}
	return z / sqrt(c / 3.0) / sqrt(3.0);
}

enum noise { GAUSS, HEAVY, AR1 };
struct noise_cfg {
	const char *name;
	enum noise kind;
	double cv;
};
static const struct noise_cfg noises[] = {
    {"gauss 0.5%", GAUSS, 0.005}, {"gauss 2%", GAUSS, 0.02}, {"gauss 5%", GAUSS, 0.05},
    {"t3 2%", HEAVY, 0.02},       {"ar1 2%", AR1, 0.02},
};
static const int lengths[] = {50, 200, 1000};

/* Unit-variance noise sequence of the given kind. */
static void fill_noise(double *e, int n, enum noise kind)
{
	double prev = gauss();
	for (int i = 0; i < n; i++) {
		if (kind == GAUSS)
			e[i] = gauss();
		else if (kind == HEAVY)
			e[i] = student3();
		else {
			prev = 0.5 * prev + sqrt(1 - 0.25) * gauss();
			e[i] = prev;
		}
	}
}

struct truth {
	int steps[8], nsteps;
	double sigmas[8];  /* step size in noise standard deviations */
	int spike, revert; /* -1 when none */
};

/* A labelled series: level 1000, steps, traps, noise. */
static void make_series(double *x, int n, const struct noise_cfg *nc, bool with_changes,
			struct truth *t)
{
	double *e = malloc((size_t)n * sizeof(*e));
	fill_noise(e, n, nc->kind);
	t->nsteps = 0;
	t->spike = t->revert = -1;
	int want = with_changes ? (int)(next_u64() % 6) : 0;
	/* Step positions at least 20 apart and 20 from the ends. */
	for (int tries = 0; t->nsteps < want && tries < 200; tries++) {
		if (n < 41)
			break;
		int p = 20 + (int)(next_u64() % (uint64_t)(n - 40));
		bool ok = true;
		for (int k = 0; k < t->nsteps; k++)
			ok &= abs(p - t->steps[k]) >= 20;
		if (ok)
			t->steps[t->nsteps++] = p;
	}
	for (int a = 0; a < t->nsteps; a++) /* sort */
		for (int b = a + 1; b < t->nsteps; b++)
			if (t->steps[b] < t->steps[a]) {
				int tmp = t->steps[a];
				t->steps[a] = t->steps[b];
				t->steps[b] = tmp;
			}
	double level = 1000.0;
	int k = 0;
	double rel[8];
	for (int s = 0; s < t->nsteps; s++) {
		double mag = 0.01 + 0.19 * uniform();
		rel[s] = next_u64() & 1 ? mag : -mag;
	}
	for (int i = 0; i < n; i++) {
		while (k < t->nsteps && i == t->steps[k]) {
			double before = level;
			level *= 1.0 + rel[k];
			t->sigmas[k] = fabs(level - before) / (nc->cv * before);
			k++;
		}
		x[i] = level * (1.0 + nc->cv * e[i]);
	}
	/* Traps away from the steps (8 points) and from each other. */
	if (with_changes && n >= 40) {
		for (int trap = 0; trap < 2; trap++) {
			for (int tries = 0; tries < 200; tries++) {
				int p = 8 + (int)(next_u64() % (uint64_t)(n - 16));
				bool ok = true;
				for (int s = 0; s < t->nsteps; s++)
					ok &= abs(p - t->steps[s]) >= 8 &&
					      abs(p + 3 - t->steps[s]) >= 8;
				if (trap == 1)
					ok &= abs(p - t->spike) >= 8;
				if (!ok)
					continue;
				double sd = nc->cv * x[p];
				if (trap == 0) {
					x[p] += (next_u64() & 1 ? 8 : -8) * sd;
					t->spike = p;
				} else {
					double d = (next_u64() & 1 ? 5 : -5) * sd;
					for (int j = p; j < p + 3 && j < n; j++)
						x[j] += d;
					t->revert = p;
				}
				break;
			}
		}
	}
	free(e);
}

struct score {
	long tp, fp, fn, big_steps, big_found, spikes, spikes_hit, reverts, reverts_hit;
	long noise_series, noise_series_fp, noise_points, noise_fp;
};

static bool near(int a, int b, int margin)
{
	return abs(a - b) <= margin;
}

static void score_series(const struct assay_changes *ch, const struct truth *t, struct score *s)
{
	bool used[64] = {false};
	size_t m = ch->n < 64 ? ch->n : 64;
	for (int k = 0; k < t->nsteps; k++) {
		long best = -1;
		for (size_t j = 0; j < m; j++)
			if (!used[j] && near((int)ch->v[j].index, t->steps[k], 5) &&
			    (best < 0 || abs((int)ch->v[j].index - t->steps[k]) <
					     abs((int)ch->v[best].index - t->steps[k])))
				best = (long)j;
		if (best >= 0) {
			used[best] = true;
			s->tp++;
		} else {
			s->fn++;
		}
		if (t->sigmas[k] >= 2.0) {
			s->big_steps++;
			s->big_found += best >= 0;
		}
	}
	for (size_t j = 0; j < m; j++) {
		if (used[j])
			continue;
		s->fp++;
	}
	if (t->spike >= 0) {
		s->spikes++;
		bool hit = false;
		for (size_t j = 0; j < m; j++)
			hit |= near((int)ch->v[j].index, t->spike, 1) ||
			       near((int)ch->v[j].index, t->spike + 1, 1);
		s->spikes_hit += hit;
	}
	if (t->revert >= 0) {
		s->reverts++;
		bool hit = false;
		for (size_t j = 0; j < m; j++)
			hit |= near((int)ch->v[j].index, t->revert, 1) ||
			       near((int)ch->v[j].index, t->revert + 3, 1);
		s->reverts_hit += hit;
	}
}

struct method {
	const char *name;
	struct assay_detect_opts o;
};

static void run_method(const struct method *me, int reps, struct score *total,
		       struct score *noise200)
{
	printf("\n== %s (window %d, max p-value %g, min magnitude %g%s)\n", me->name, me->o.window,
	       me->o.max_pvalue, me->o.min_magnitude, me->o.otava_compat ? "" : ", min segment 5");
	printf("%-5s %-11s %9s %7s %6s %11s %12s %11s %8s %8s\n", "n", "noise", "precision",
	       "recall", "F1", "recall>=2sd", "FP/1000 pts", "noise w/ FP", "spikes", "reverts");
	uint64_t seed = rng_state;
	for (size_t li = 0; li < sizeof(lengths) / sizeof(lengths[0]); li++) {
		int n = lengths[li];
		int r = n == 1000 ? reps / 3 : reps;
		for (size_t ni = 0; ni < sizeof(noises) / sizeof(noises[0]); ni++) {
			struct score s = {0};
			double *x = malloc((size_t)n * sizeof(*x));
			/* The same series for every method. */
			rng_state = seed + 1000003 * li + 7919 * ni;
			for (int rep = 0; rep < r; rep++) {
				for (int with = 0; with < 2; with++) {
					struct truth t;
					struct assay_changes ch = {0};
					struct assay_error e;
					make_series(x, n, &noises[ni], with, &t);
					if (assay_detect(x, (size_t)n, &me->o, &ch, &e) !=
					    ASSAY_OK) {
						fprintf(stderr, "detect: %s\n", e.message);
						exit(1);
					}
					if (with) {
						score_series(&ch, &t, &s);
					} else {
						s.noise_series++;
						s.noise_series_fp += ch.n > 0;
						s.noise_points += n;
						s.noise_fp += (long)ch.n;
					}
					assay_changes_release(&ch);
				}
			}
			free(x);
			double prec = s.tp + s.fp ? (double)s.tp / (double)(s.tp + s.fp) : 1.0;
			double rec = s.tp + s.fn ? (double)s.tp / (double)(s.tp + s.fn) : 1.0;
			double f1 = prec + rec > 0 ? 2 * prec * rec / (prec + rec) : 0;
			printf("%-5d %-11s %9.3f %7.3f %6.3f %11.3f %12.2f %10.1f%% %4ld/%-4ld "
			       "%4ld/%-4ld\n",
			       n, noises[ni].name, prec, rec, f1,
			       s.big_steps ? (double)s.big_found / (double)s.big_steps : 1.0,
			       1000.0 * (double)s.noise_fp / (double)s.noise_points,
			       100.0 * (double)s.noise_series_fp / (double)s.noise_series,
			       s.spikes_hit, s.spikes, s.reverts_hit, s.reverts);
			long *dst = (long *)total, *src = (long *)&s;
			for (size_t k = 0; k < sizeof(s) / sizeof(long); k++)
				dst[k] += src[k];
			if (n == 200 && noises[ni].kind == GAUSS) {
				dst = (long *)noise200;
				for (size_t k = 0; k < sizeof(s) / sizeof(long); k++)
					dst[k] += src[k];
			}
		}
	}
	rng_state = seed;
}

/* Points after a step at 150 (Gaussian 2%) until it is found, per size. */
static void delays(const struct method *me, int reps)
{
	static const double sizes[] = {2, 4, 8};
	printf("detection delay (points after the step until found; step at 150, gauss 2%%):\n");
	for (size_t si = 0; si < 3; si++) {
		int *d = malloc((size_t)reps * sizeof(*d)), missed = 0;
		rng_state = 4242 + si;
		for (int rep = 0; rep < reps; rep++) {
			double x[200];
			for (int i = 0; i < 200; i++)
				x[i] = 1000.0 *
				       (1.0 + 0.02 * gauss() - (i >= 150 ? 0.02 * sizes[si] : 0));
			d[rep] = -1;
			for (int len = 151; len <= 200 && d[rep] < 0; len++) {
				struct assay_changes ch = {0};
				struct assay_error e;
				assay_detect(x, (size_t)len, &me->o, &ch, &e);
				for (size_t j = 0; j < ch.n; j++)
					if (near((int)ch.v[j].index, 150, 5))
						d[rep] = len - 150;
				assay_changes_release(&ch);
			}
			missed += d[rep] < 0;
		}
		/* median and 90th percentile of the found ones */
		int found = 0;
		for (int i = 0; i < reps; i++)
			if (d[i] >= 0)
				d[found++] = d[i];
		for (int a = 0; a < found; a++)
			for (int b = a + 1; b < found; b++)
				if (d[b] < d[a]) {
					int tmp = d[a];
					d[a] = d[b];
					d[b] = tmp;
				}
		if (found)
			printf(
			    "  %g sigma: median %d, p90 %d points; not found within 50: %d of %d\n",
			    sizes[si], d[found / 2],
			    d[(found * 9) / 10 < found ? (found * 9) / 10 : found - 1], missed,
			    reps);
		else
			printf("  %g sigma: never found within 50 points (%d series)\n", sizes[si],
			       reps);
		free(d);
	}
}

int main(int argc, char **argv)
{
	int reps = argc > 1 ? atoi(argv[1]) : 100;
	struct method methods[3];
	methods[0].name = "assay (CI defaults)";
	assay_detect_defaults(&methods[0].o);
	methods[1].name = "baseline: Otava's algorithm at the same settings";
	assay_detect_otava_defaults(&methods[1].o);
	methods[1].o.max_pvalue = 1e-4;
	methods[2].name = "baseline: Otava's algorithm at its defaults";
	assay_detect_otava_defaults(&methods[2].o);
	struct score total[3] = {{0}}, noise200[3] = {{0}};
	printf("detect-eval: %d series per (n, noise) and kind (1/3 for n=1000), seed fixed\n",
	       reps);
	for (int m = 0; m < 3; m++) {
		run_method(&methods[m], reps, &total[m], &noise200[m]);
		delays(&methods[m], reps / 2 > 10 ? reps / 2 : 10);
	}
	printf("\n== summary against the targets (CI defaults)\n");
	for (int m = 0; m < 3; m++) {
		struct score *s = &total[m];
		double prec = (double)s->tp / (double)(s->tp + s->fp);
		double rec = (double)s->tp / (double)(s->tp + s->fn);
		printf("%-50s P %.3f  R %.3f  F1 %.3f  recall>=2sd %.3f  noise-200 w/ FP %.1f%%  "
		       "spikes "
		       "%ld/%ld  reverts %ld/%ld\n",
		       methods[m].name, prec, rec, 2 * prec * rec / (prec + rec),
		       (double)s->big_found / (double)s->big_steps,
		       100.0 * (double)noise200[m].noise_series_fp /
			   (double)noise200[m].noise_series,
		       s->spikes_hit, s->spikes, s->reverts_hit, s->reverts);
	}
	struct score *a = &total[0];
	double big = (double)a->big_found / (double)a->big_steps;
	double fp200 = (double)noise200[0].noise_series_fp / (double)noise200[0].noise_series;
	printf(
	    "targets: recall>=2sd >= 0.98: %s (%.3f); 200-point Gaussian noise series with a false "
	    "change point <= 2%%: %s (%.1f%%); spikes never flagged: %s (%ld)\n",
	    big >= 0.98 ? "met" : "MISSED", big, fp200 <= 0.02 ? "met" : "MISSED", 100 * fp200,
	    a->spikes_hit == 0 ? "met" : "MISSED", a->spikes_hit);
	return 0;
}
