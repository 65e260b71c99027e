#include "python/src/errors.hpp"

#include <map>

#include "dtb/probe.h"

namespace py = pybind11;

namespace dtb::python {

namespace {

struct ErrorClass {
    const char* name;
    const char* parent;  // a class made before it, or nullptr for dtb.Error
    PyObject* builtin;   // the built-in exception it also derives from, or nullptr
    const char* doc;
};

// The classes, keyed by the status they stand for. They live as long as
// the interpreter: the module holds them, and so does this table.
std::map<int, PyObject*>& classes() {
    static std::map<int, PyObject*> table;
    return table;
}
PyObject* base_error = nullptr;

PyObject* make_class(py::module_& m, const char* name, PyObject* bases, const char* doc) {
    const std::string qualified = std::string("dtb.") + name;
    PyObject* cls = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
    if (cls == nullptr) throw py::error_already_set();
    m.attr(name) = py::handle(cls);  // the module takes its own reference; ours stays for the table
    return cls;
}

// Raises the exception of `status` with `message`; its `status` attribute
// is the C API's name for the status ("missing table", ...).
void raise(int status, const char* message) {
    if (status == DTB_OUT_OF_MEMORY) {
        PyErr_SetString(PyExc_MemoryError, message);
        return;
    }
    const auto it = classes().find(status);
    PyObject* cls = it == classes().end() ? base_error : it->second;
    PyObject* error = PyObject_CallFunction(cls, "s", message);
    if (error == nullptr) return;  // the call set its own exception
    const char* status_name = status == kIllegalMove ? "illegal move" : dtb_status_name(status);
    PyObject* name = PyUnicode_FromString(status_name);
    if (name == nullptr || PyObject_SetAttrString(error, "status", name) != 0) {
        Py_XDECREF(name);
        Py_DECREF(error);
        return;
    }
    Py_DECREF(name);
    PyErr_SetObject(cls, error);
    Py_DECREF(error);
}

}  // namespace

void add_errors(py::module_& m) {
    base_error = make_class(m, "Error", PyExc_Exception,
                            "Base of every dtb error; `status` names the reason as the C API does "
                            "(dtb_status_name), str(error) is the library's message.");
    const auto subclass = [&](int status, const char* name, PyObject* parent, PyObject* builtin, const char* doc) {
        py::tuple bases =
            builtin ? py::make_tuple(py::handle(parent), py::handle(builtin)) : py::make_tuple(py::handle(parent));
        PyObject* cls = make_class(m, name, bases.ptr(), doc);
        classes()[status] = cls;
        return cls;
    };
    subclass(DTB_BAD_POSITION, "BadFenError", base_error, PyExc_ValueError,
             "A FEN that does not parse, a position the variant cannot have, or a FEN whose variant "
             "cannot be told (pass variant=).");
    PyObject* missing = subclass(DTB_MISSING_TABLE, "MissingTableError", base_error, PyExc_LookupError,
                                 "A table the position needs is not in the directories; the message names it.");
    subclass(DTB_TOO_MANY_PIECES, "TooManyPiecesError", missing, nullptr,
             "More pieces than the largest table of the variant in the directories.");
    subclass(DTB_CORRUPT_TABLE, "CorruptTableError", base_error, PyExc_OSError,
             "A table file failed a check (magic, version, checksum, size, contents); the message names it.");
    subclass(DTB_IO_ERROR, "TableIOError", base_error, PyExc_OSError,
             "A directory or table file could not be opened, listed or mapped.");
    subclass(kIllegalMove, "IllegalMoveError", base_error, PyExc_ValueError,
             "A move that is not legal in the position, or names more than one legal move.");
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const StatusError& e) {
            raise(e.status(), e.what());
        }
    });
}

}  // namespace dtb::python
