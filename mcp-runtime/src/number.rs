//! What a JSON `number` member takes when it is built: any Rust integer or float, so that a
//! progress count (`items.len()`), a priority or a temperature is passed as it is, without a
//! cast. The generated structs hold such a member as `f64` (a JSON number need not be an
//! integer), and their `new` and `with_<member>` take `impl IntoNumber` for it.
//!
//! ```
//! # use mcp_tests::mcp;
//! use mcp::prelude::*;
//!
//! let done: usize = 3;
//! let total: u64 = 10;
//! let progress = ProgressNotificationParams::new(done, "token-1").with_total(total);
//! assert_eq!((progress.progress, progress.total), (3.0, Some(10.0)));
//! let schema = NumberSchema::new(NumberSchemaType::Integer).with_minimum(1).with_maximum(9);
//! assert_eq!(schema.maximum, Some(9.0));
//! ```

/// A Rust number that a JSON `number` member (`f64`) takes: every primitive integer and
/// float. An integer beyond 2^53 in magnitude becomes the nearest `f64`, as any JSON reader
/// that holds numbers as doubles would read it.
pub trait IntoNumber {
    /// The value as the `f64` the member holds.
    fn into_number(self) -> f64;
}

/// `IntoNumber` for each listed primitive, by an `as` conversion (exact for `f32` and every
/// integer up to 2^53 in magnitude, the nearest `f64` beyond).
macro_rules! into_number {
    ($($t:ty),*) => {
        $(impl IntoNumber for $t {
            #[inline]
            fn into_number(self) -> f64 {
                self as f64
            }
        })*
    };
}

into_number!(
    i8, i16, i32, i64, i128, isize, u8, u16, u32, u64, u128, usize, f32, f64
);

#[cfg(test)]
mod tests {
    use super::IntoNumber;

    #[test]
    fn integers_and_floats_keep_their_value() {
        assert_eq!(7_usize.into_number(), 7.0);
        assert_eq!((-3_i64).into_number(), -3.0);
        assert_eq!(u32::MAX.into_number(), 4_294_967_295.0);
        assert_eq!(0.5_f32.into_number(), 0.5);
        assert_eq!(0.1_f64.into_number(), 0.1);
    }

    #[test]
    fn an_integer_beyond_two_to_the_53_is_the_nearest_double() {
        let big = (1_u64 << 53) + 1;
        assert_eq!(big.into_number(), 9_007_199_254_740_992.0);
    }
}
