// The exceptions of the Python module: one class per C API status (a
// DTB_* code of dtb/probe.h), each also a subclass of the built-in
// exception a Python programmer would catch for it (ValueError for bad
// input, LookupError for a missing table, OSError for a damaged file).
#pragma once

#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>

namespace dtb::python {

// Not a C API status: a move that is not legal in the position (dtb.play).
inline constexpr int kIllegalMove = 100;

// A failure with its status and the library's message. Thrown by code
// that runs without the GIL; the module turns it into the Python exception
// of its status once the GIL is held again.
class StatusError : public std::runtime_error {
public:
    StatusError(int status, const std::string& message) : std::runtime_error(message), status_(status) {}
    int status() const { return status_; }

private:
    int status_;
};

// Creates dtb.Error and its subclasses in `m` and registers the
// translation of StatusError into them.
void add_errors(pybind11::module_& m);

}  // namespace dtb::python
