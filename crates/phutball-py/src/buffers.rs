//! The caller's numpy arrays that `VecEnv.step_into` and `VecEnv.reset_into`
//! write into: each is checked (a numpy array, its dtype, its shape, C order,
//! writeable, not sharing memory with another argument) before any game
//! changes, and each error names the argument.

use numpy::ndarray::Dimension;
use numpy::{
    BorrowError, Element, PyArray, PyArrayDescrMethods, PyArrayMethods, PyReadwriteArray,
    PyUntypedArray, PyUntypedArrayMethods,
};
use phutball::{Side, StepState};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;

/// A shape as Python prints it: `(8,)`, `(8, 5, 9, 5)`.
fn shape_text(shape: &[usize]) -> String {
    if let [one] = shape {
        return format!("({one},)");
    }
    let dims: Vec<String> = shape.iter().map(ToString::to_string).collect();
    format!("({})", dims.join(", "))
}

/// The argument `name` as an array of `T` (numpy dtype `dtype`) and of
/// `shape`, in C order: `TypeError` for anything but a numpy array or for
/// another dtype (no cast: the caller's buffer is the one written),
/// `ValueError` for another shape or a strided view.
pub(crate) fn buffer_arg<'py, T: Element, D: Dimension>(
    arg: &Bound<'py, PyAny>,
    name: &str,
    shape: &[usize],
) -> PyResult<Bound<'py, PyArray<T, D>>> {
    let py = arg.py();
    let array = arg.cast::<PyUntypedArray>().map_err(|_| {
        let kind = arg
            .get_type()
            .name()
            .map_or_else(|_| "that".to_string(), |n| n.to_string());
        PyTypeError::new_err(format!("{name} must be a numpy array, not {kind}"))
    })?;
    let dtype = numpy::dtype::<T>(py);
    if !array.dtype().is_equiv_to(&dtype) {
        return Err(PyTypeError::new_err(format!(
            "{name} must have dtype {}, not {}",
            dtype.str()?,
            array.dtype().str()?
        )));
    }
    if array.shape() != shape {
        return Err(PyValueError::new_err(format!(
            "{name} must have shape {}, not {}",
            shape_text(shape),
            shape_text(array.shape())
        )));
    }
    if !array.is_c_contiguous() {
        return Err(PyValueError::new_err(format!(
            "{name} must be C-contiguous (numpy.ascontiguousarray), not a strided view"
        )));
    }
    Ok(array.clone().cast_into::<PyArray<T, D>>()?)
}

/// Write access to the checked array `name`: `ValueError` if it is
/// read-only or shares memory with another argument (two flags in one
/// array would overwrite each other).
pub(crate) fn writable<'py, T: Element, D: Dimension>(
    array: &Bound<'py, PyArray<T, D>>,
    name: &str,
) -> PyResult<PyReadwriteArray<'py, T, D>> {
    array.try_readwrite().map_err(|e| {
        PyValueError::new_err(match e {
            BorrowError::NotWriteable => format!("{name} is read-only"),
            _ => format!("{name} shares memory with another of the arrays to write"),
        })
    })
}

/// Each state's side to act, 0 for Ohs and 1 for Eks (the `to_move` array).
pub(crate) fn write_to_move(states: impl Iterator<Item = StepState>, out: &mut [i8]) {
    for (side, state) in out.iter_mut().zip(states) {
        *side = i8::from(state.to_move() == Side::Eks);
    }
}

#[cfg(test)]
mod tests {
    use super::shape_text;

    #[test]
    fn shapes_print_as_python_tuples() {
        assert_eq!(shape_text(&[8]), "(8,)");
        assert_eq!(shape_text(&[8, 5, 9, 5]), "(8, 5, 9, 5)");
        assert_eq!(shape_text(&[]), "()");
    }
}
