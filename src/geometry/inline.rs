//! Short lists kept inline: a contact's points, a view's corners, a time of impact's steps.
//! Each is its own type, read as a slice, so the crate's public types name no other crate's
//! container (the inline storage is smallvec's, an implementation detail free to change).
//! Every method is `#[inline]`: they are not generic, so without it a call from another
//! codegen unit (SAT reading a polygon's corners) is a call, not a field access.

/// Defines `$name`, a list of `$item` held inline up to `$n` (on the heap past that), read as
/// a slice (`Deref<Target = [$item]>`), built by `collect`, `from_slice`, `push`.
macro_rules! inline_list {
    ($(#[$meta:meta])* $name:ident, $item:ty, $n:literal) => {
        $(#[$meta])*
        #[derive(Clone, Default, PartialEq, serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(smallvec::SmallVec<[$item; $n]>);

        impl $name {
            /// An empty list.
            #[inline]
            pub fn new() -> Self {
                Self(smallvec::SmallVec::new())
            }

            /// The list of `items`, copied.
            #[inline]
            pub fn from_slice(items: &[$item]) -> Self {
                Self(smallvec::SmallVec::from_slice(items))
            }

            /// Add `item` at the end.
            #[inline]
            pub fn push(&mut self, item: $item) {
                self.0.push(item);
            }

            /// The items, as a slice.
            #[inline]
            pub fn as_slice(&self) -> &[$item] {
                &self.0
            }

            #[allow(dead_code)]
            #[inline]
            pub(crate) fn from_inline(inline: smallvec::SmallVec<[$item; $n]>) -> Self {
                Self(inline)
            }
        }

        impl std::fmt::Debug for $name {
            #[inline]
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.debug_list().entries(self.0.iter()).finish()
            }
        }

        impl std::ops::Deref for $name {
            type Target = [$item];
            #[inline]
            fn deref(&self) -> &[$item] {
                &self.0
            }
        }

        impl std::ops::DerefMut for $name {
            #[inline]
            fn deref_mut(&mut self) -> &mut [$item] {
                &mut self.0
            }
        }

        impl FromIterator<$item> for $name {
            #[inline]
            fn from_iter<I: IntoIterator<Item = $item>>(items: I) -> Self {
                Self(items.into_iter().collect())
            }
        }

        impl Extend<$item> for $name {
            #[inline]
            fn extend<I: IntoIterator<Item = $item>>(&mut self, items: I) {
                self.0.extend(items);
            }
        }

        impl<'a> IntoIterator for &'a $name {
            type Item = &'a $item;
            type IntoIter = std::slice::Iter<'a, $item>;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter()
            }
        }

        impl<'a> IntoIterator for &'a mut $name {
            type Item = &'a mut $item;
            type IntoIter = std::slice::IterMut<'a, $item>;
            #[inline]
            fn into_iter(self) -> Self::IntoIter {
                self.0.iter_mut()
            }
        }

        impl From<Vec<$item>> for $name {
            #[inline]
            fn from(items: Vec<$item>) -> Self {
                Self(smallvec::SmallVec::from_vec(items))
            }
        }
    };
}

pub(crate) use inline_list;

inline_list!(
    /// A view's core corners or normals: up to 8 inline.
    Corners,
    glam::DVec2,
    8
);
