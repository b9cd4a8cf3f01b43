/* The Student t distribution for the change-point tests: the regularized
 * incomplete beta function I_x(a, b) by its continued fraction (evaluated
 * with the modified Lentz method), and from it the two-sided p-value of a
 * t statistic. Only libm is used. */
#include <float.h>
#include <math.h>

#include "assay/detect.h"

/* One step of the modified Lentz method: fold coefficient num into the
 * running c and d; returns the factor the fraction's value changes by. */
static double lentz(double num, double *c, double *d)
{
	const double tiny = 1e-300;
	*d = 1.0 + num * *d;
	*c = 1.0 + num / *c;
	if (fabs(*d) < tiny)
		*d = tiny;
	if (fabs(*c) < tiny)
		*c = tiny;
	*d = 1.0 / *d;
	return *d * *c;
}

/* The continued fraction of I_x(a, b) (converges fast for x < (a+1)/(a+b+2)). */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0);
	if (fabs(d) < 1e-300)
		d = 1e-300;
	d = 1.0 / d;
	double f = d;
	for (int m = 1; m <= 1000; m++) {
		double m2 = 2.0 * m;
		/* Even step: d_{2m} = m (b - m) x / ((a + 2m - 1)(a + 2m)). */
		f *= lentz(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)), &c, &d);
		/* Odd step: d_{2m+1} = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)). */
		double delta =
		    lentz(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)), &c, &d);
		f *= delta;
		if (fabs(delta - 1.0) < 1e-16)
			break;
	}
	return f;
}

double assay_betainc(double a, double b, double x)
{
	if (!(a > 0) || !(b > 0) || isnan(x))
		return NAN;
	if (x <= 0)
		return 0.0;
	if (x >= 1)
		return 1.0;
	/* x^a (1-x)^b / (a B(a, b)), in logs. */
	double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
	if (x < (a + 1.0) / (a + b + 2.0))
		return exp(lfront) * beta_cf(a, b, x) / a;
	return 1.0 - exp(lfront) * beta_cf(b, a, 1.0 - x) / b;
}

double assay_t_sf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 0.0 : 1.0;
	/* P(T > |t|) = I_{df/(df+t^2)}(df/2, 1/2) / 2. */
	double x = df / (df + t * t);
	double tail = 0.5 * assay_betainc(0.5 * df, 0.5, x);
	return t > 0 ? tail : 1.0 - tail;
}

double assay_t_cdf(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	return assay_t_sf(-t, df);
}

double assay_t_two_sided(double t, double df)
{
	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return 0.0;
	double p = assay_betainc(0.5 * df, 0.5, df / (df + t * t));
	return p > 1.0 ? 1.0 : p;
}
