//! The number type a generated kernel computes in: `f64` (what every runtime path uses, and
//! bit for bit what the kernels computed before they were generic), `f32` (game engines),
//! with the feature `num-dual`, `num_dual::Dual64` (derivatives by any input), and with the
//! feature `wide`, SIMD lanes `wide::f64x4` and `wide::f32x8` (several joints per call).
//! `embedding/` (a crate outside the workspace) tests and benchmarks them.
//!
//! Generated kernels write constants as `S::c(2.0)`, functions as methods (`x.sqrt()`) or
//! paths (`S::atan2(y, x)`), and a conditional as [`Scalar::select_ge`] with both branches as
//! closures: a scalar type evaluates only the branch taken, a SIMD lane type may evaluate both
//! and blend.

use core::ops::{Add, Div, Mul, Neg, Sub};

/// A number type generated kernels are generic over.
pub trait Scalar:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + core::fmt::Debug
    + 'static
{
    /// The constant `value` (rounded to the type; a derivative part of zero).
    fn c(value: f64) -> Self;
    /// √x.
    fn sqrt(self) -> Self;
    /// sin x.
    fn sin(self) -> Self;
    /// cos x.
    fn cos(self) -> Self;
    /// x rounded half away from zero (`f64::round`; its derivative is zero).
    fn round(self) -> Self;
    /// The angle of (x, y) = `self.atan2(x)`, in (−π, π].
    fn atan2(self, x: Self) -> Self;
    /// `then()` where a ≥ b, `otherwise()` elsewhere (compared by value, derivative parts
    /// aside).
    fn select_ge(
        a: Self,
        b: Self,
        then: impl FnOnce() -> Self,
        otherwise: impl FnOnce() -> Self,
    ) -> Self;
    /// `then()` where a > b, `otherwise()` elsewhere.
    fn select_gt(
        a: Self,
        b: Self,
        then: impl FnOnce() -> Self,
        otherwise: impl FnOnce() -> Self,
    ) -> Self;
}

/// The float functions of `f64` and `f32`: std's, or libm's without std (the same IEEE
/// results for `sqrt` and `round`; `sin`, `cos`, `atan2` may differ in the last bit).
#[cfg(feature = "std")]
macro_rules! float_functions {
    ($t:ty, $($libm:ident)*) => {
        #[inline(always)]
        fn sqrt(self) -> Self {
            <$t>::sqrt(self)
        }
        #[inline(always)]
        fn sin(self) -> Self {
            <$t>::sin(self)
        }
        #[inline(always)]
        fn cos(self) -> Self {
            <$t>::cos(self)
        }
        #[inline(always)]
        fn round(self) -> Self {
            <$t>::round(self)
        }
        #[inline(always)]
        fn atan2(self, x: Self) -> Self {
            <$t>::atan2(self, x)
        }
    };
}

#[cfg(not(feature = "std"))]
macro_rules! float_functions {
    ($t:ty, $sqrt:ident $sin:ident $cos:ident $round:ident $atan2:ident) => {
        #[inline(always)]
        fn sqrt(self) -> Self {
            libm::$sqrt(self)
        }
        #[inline(always)]
        fn sin(self) -> Self {
            libm::$sin(self)
        }
        #[inline(always)]
        fn cos(self) -> Self {
            libm::$cos(self)
        }
        #[inline(always)]
        fn round(self) -> Self {
            libm::$round(self)
        }
        #[inline(always)]
        fn atan2(self, x: Self) -> Self {
            libm::$atan2(self, x)
        }
    };
}

macro_rules! float_scalar {
    ($t:ty, $($libm:ident)*) => {
        impl Scalar for $t {
            #[inline(always)]
            fn c(value: f64) -> Self {
                value as $t
            }
            float_functions!($t, $($libm)*);
            #[inline(always)]
            fn select_ge(
                a: Self,
                b: Self,
                then: impl FnOnce() -> Self,
                otherwise: impl FnOnce() -> Self,
            ) -> Self {
                if a >= b { then() } else { otherwise() }
            }
            #[inline(always)]
            fn select_gt(
                a: Self,
                b: Self,
                then: impl FnOnce() -> Self,
                otherwise: impl FnOnce() -> Self,
            ) -> Self {
                if a > b { then() } else { otherwise() }
            }
        }
    };
}

float_scalar!(f64, sqrt sin cos round atan2);
float_scalar!(f32, sqrtf sinf cosf roundf atan2f);

#[cfg(feature = "num-dual")]
impl Scalar for num_dual::Dual64 {
    #[inline]
    fn c(value: f64) -> Self {
        num_dual::Dual64::from_re(value)
    }
    #[inline]
    fn sqrt(self) -> Self {
        num_dual::DualNum::sqrt(&self)
    }
    #[inline]
    fn sin(self) -> Self {
        num_dual::DualNum::sin(&self)
    }
    #[inline]
    fn cos(self) -> Self {
        num_dual::DualNum::cos(&self)
    }
    #[inline]
    fn round(self) -> Self {
        num_dual::Dual64::from_re(self.re.round())
    }
    #[inline]
    fn atan2(self, x: Self) -> Self {
        num_dual::DualNum::atan2(&self, x)
    }
    #[inline]
    fn select_ge(
        a: Self,
        b: Self,
        then: impl FnOnce() -> Self,
        otherwise: impl FnOnce() -> Self,
    ) -> Self {
        if a.re >= b.re { then() } else { otherwise() }
    }
    #[inline]
    fn select_gt(
        a: Self,
        b: Self,
        then: impl FnOnce() -> Self,
        otherwise: impl FnOnce() -> Self,
    ) -> Self {
        if a.re > b.re { then() } else { otherwise() }
    }
}

/// SIMD lanes (the crate `wide`, joint-core's feature `wide`): a kernel instantiated with
/// `f64x4` evaluates four joints at once, lane k of every argument being joint k's (the
/// structure-of-arrays form). Constants are splat, a conditional evaluates both branches and
/// blends them by lane. `wide` uses AVX only where compiled for it (`-C target-cpu=native`,
/// or `target-feature=+avx2,+fma`); without, two SSE2 halves.
#[cfg(feature = "wide")]
macro_rules! lane_scalar {
    ($t:ty, $e:ty) => {
        impl Scalar for $t {
            #[inline(always)]
            fn c(value: f64) -> Self {
                <$t>::splat(value as $e)
            }
            #[inline(always)]
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            #[inline(always)]
            fn sin(self) -> Self {
                self.sin_cos().0
            }
            #[inline(always)]
            fn cos(self) -> Self {
                self.sin_cos().1
            }
            #[inline(always)]
            fn round(self) -> Self {
                <$t>::round(self)
            }
            #[inline(always)]
            fn atan2(self, x: Self) -> Self {
                <$t>::atan2(self, x)
            }
            #[inline(always)]
            fn select_ge(
                a: Self,
                b: Self,
                then: impl FnOnce() -> Self,
                otherwise: impl FnOnce() -> Self,
            ) -> Self {
                a.simd_ge(b).select(then(), otherwise())
            }
            #[inline(always)]
            fn select_gt(
                a: Self,
                b: Self,
                then: impl FnOnce() -> Self,
                otherwise: impl FnOnce() -> Self,
            ) -> Self {
                a.simd_gt(b).select(then(), otherwise())
            }
        }
    };
}

#[cfg(feature = "wide")]
lane_scalar!(wide::f64x4, f64);
#[cfg(feature = "wide")]
lane_scalar!(wide::f32x8, f32);
