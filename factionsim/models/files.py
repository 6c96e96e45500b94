"""Policy files that are data, not code: a JSON description plus an ``.npz`` of named arrays.

``write_policy("run/policy.json", description, arrays)`` writes ``run/policy.json`` and
``run/policy.npz``; :func:`read_policy` reads them back into a :class:`PolicyModel` that plays
with numpy alone. Reading never unpickles anything: the weights are read with
``numpy.load(allow_pickle=False)`` (an array of Python objects is refused), the description is
plain JSON, and both are bounded in size before they are parsed. The description's fields are
documented in ``docs/training.md`` ("The policy file format"); :data:`FORMAT` and
:data:`FORMAT_VERSION` name the format.

>>> import numpy as np, tempfile, pathlib
>>> d = {"ruleset": "wwn", "env_version": 1, "spaces": {"observation": 2, "actions": 3},
...      "codec": {"limits": {}}, "network": {"layers": [
...          {"type": "dense", "weight": "w", "bias": None, "activation": None}]}}
>>> path = pathlib.Path(tempfile.mkdtemp()) / "tiny.json"
>>> write_policy(path, d, {"w": np.ones((3, 2), np.float32)}).n_actions
3
>>> read_policy(path).logits(np.array([0.5, 0.25])).tolist()
[0.75, 0.75, 0.75]
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from factionsim.core.files import write_atomic

from .network import ModelFileError, Network, masked_softmax
from .prior import check_prior

FORMAT = "factionsim-policy"
FORMAT_VERSION = 1
#: Largest description file read (bytes): a description is a few kilobytes.
MAX_DESCRIPTION_BYTES = 1 << 20
#: Largest weights file read, and largest total of its arrays once unpacked (bytes).
MAX_WEIGHTS_BYTES = 256 << 20
MAX_ARRAYS_BYTES = 512 << 20
#: Storage types the weights may use (computation is float64 whatever they are stored in).
WEIGHT_DTYPES = ("float16", "float32", "float64")
#: The description's top-level fields: required, then optional.
REQUIRED = ("format", "format_version", "ruleset", "env_version", "spaces", "codec", "network",
            "weights")
OPTIONAL = ("trained_on", "training", "notes", "prior", "search")
#: a ``search`` field's keys by its kind (a search policy: :func:`check_search`)
SEARCH_KEYS = {"afterstate-value": ("kind", "features", "candidates", "samples", "margin"),
               "rollout-leaf": ("kind", "features", "candidates", "budget", "horizon", "margin"),
               "tuned-heuristic": ("kind", "features", "parameters")}
#: the search kinds' key whose number bounds (both included) :func:`check_search` checks
SEARCH_COUNTS = {"samples": (1, 64), "budget": (1, 256), "horizon": (0, 8)}


@dataclass
class PolicyModel:
    """A policy rebuilt from its description: ``logits(obs)`` and ``probabilities(obs, legal)``."""

    description: dict[str, Any]
    network: Network
    source: str

    @property
    def ruleset(self) -> str:
        return str(self.description["ruleset"])

    @property
    def env_version(self) -> int:
        return int(self.description["env_version"])

    @property
    def obs_size(self) -> int:
        return int(self.description["spaces"]["observation"])

    @property
    def n_actions(self) -> int:
        return int(self.description["spaces"]["actions"])

    @property
    def limits(self) -> dict[str, Any]:
        """The codec limits it was trained with (``make_codec(state, **limits)``)."""
        return dict(self.description["codec"].get("limits") or {})

    @property
    def prior(self) -> dict[str, Any] | None:
        """The prior the network reads beside the observation (``{"agent": "heuristic",
        "weight": W}``: :mod:`factionsim.models.prior`), or ``None``."""
        return self.description.get("prior")

    @property
    def search(self) -> dict[str, Any] | None:
        """A value-search policy's ``search`` field (its network scores afterstates:
        :mod:`factionsim.agents.value_search`), or ``None``."""
        return self.description.get("search")

    @property
    def in_size(self) -> int:
        """Values the network reads: the observation, then (with a prior) one per action."""
        return self.obs_size + (self.n_actions if self.prior else 0)

    def logits(self, obs: np.ndarray) -> np.ndarray:
        """Logits of ``obs`` (``in_size`` values: with a prior, the env's observation followed
        by the prior, as :class:`factionsim.models.prior.PriorCodec` writes them)."""
        return self.network(obs)

    def probabilities(self, obs: np.ndarray, legal: Any) -> np.ndarray:
        """Probability of each catalogue index in ``legal`` (in that order; they sum to 1)."""
        return masked_softmax(self.network(obs), legal)


# ----------------------------------------------------------------------------- reading
def _fail(source: Any, field: str, problem: str) -> ModelFileError:
    return ModelFileError(f"{source}: {field}: {problem}" if field else f"{source}: {problem}")


def _read_bounded(path: Path, limit: int, what: str) -> bytes:
    try:
        size = path.stat().st_size
        if size > limit:
            raise _fail(path, "", f"the {what} is {size} bytes; at most {limit} are read")
        return path.read_bytes()
    except OSError as exc:
        raise _fail(path, "", f"cannot read the {what}: {exc.strerror or exc}") from None


def _positive_int(value: Any, source: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 1 << 31:
        raise _fail(source, field, f"must be a positive whole number, not {value!r}")
    return value


def check_description(d: Any, source: Any) -> dict[str, Any]:
    """The description ``d`` if every field is well-formed, else :class:`ModelFileError` naming
    the file and field (the network itself is checked when it is rebuilt)."""
    if not isinstance(d, dict):
        raise _fail(source, "", "a policy description must be a JSON object")
    missing = [k for k in REQUIRED if k not in d]
    if missing:
        raise _fail(source, "", f"missing field(s) {', '.join(missing)}; a policy description "
                    f"has: {', '.join(REQUIRED + OPTIONAL)}")
    unknown = sorted(set(d) - set(REQUIRED) - set(OPTIONAL))
    if unknown:
        raise _fail(source, "", f"unknown field(s) {', '.join(unknown)}; allowed: "
                    f"{', '.join(REQUIRED + OPTIONAL)}")
    if d["format"] != FORMAT:
        raise _fail(source, "format", f"{d['format']!r}; expected {FORMAT!r}")
    if d["format_version"] != FORMAT_VERSION:
        raise _fail(source, "format_version", f"{d['format_version']!r}; this factionsim reads "
                    f"version {FORMAT_VERSION}")
    if not isinstance(d["ruleset"], str):
        raise _fail(source, "ruleset", f"must be a ruleset name, not {d['ruleset']!r}")
    _positive_int(d["env_version"], source, "env_version")
    spaces = d["spaces"]
    if not isinstance(spaces, dict) or set(spaces) != {"observation", "actions"}:
        raise _fail(source, "spaces", "must be {\"observation\": SIZE, \"actions\": COUNT}")
    for key in ("observation", "actions"):
        _positive_int(spaces[key], source, f"spaces.{key}")
    limits = d["codec"].get("limits", {}) if isinstance(d["codec"], dict) else None
    if not isinstance(limits, dict) or not all(
            isinstance(v, int | str) and not isinstance(v, bool) for v in limits.values()):
        raise _fail(source, "codec.limits", "must be an object of the codec's limits (numbers or "
                    "text), as make_codec takes them")
    weights = d["weights"]
    if not isinstance(weights, dict) or not isinstance(weights.get("file"), str) \
            or not isinstance(weights.get("sha256"), str):
        raise _fail(source, "weights", "must be {\"file\": NAME.npz, \"sha256\": HEX, ...}")
    name = weights["file"]
    if Path(name).name != name or not name.endswith(".npz") or name.startswith("."):
        raise _fail(source, "weights.file", f"{name!r}: must be the name of an .npz file in the "
                    "same folder as the description (no folders)")
    if "prior" in d:
        check_prior(d["prior"], source)
    if "search" in d:
        check_search(d, source)
    return d


def check_search(d: dict[str, Any], source: Any) -> None:
    """A search policy's ``search`` field: ``{"kind": "afterstate-value", "features": NAME,
    "candidates": "planner", "samples": N, "margin": M}`` (one-ply search over afterstates) or
    ``{"kind": "rollout-leaf", "features": NAME, "candidates": "planner", "budget": B,
    "horizon": H, "margin": M}`` (the planner's rollouts, their last state scored by the
    network): its network reads ``spaces.observation`` features and gives ``spaces.actions`` = 1
    value; or ``{"kind": "tuned-heuristic", "features": "constant" | "faction" | "sheet",
    "parameters": [NAME...]}`` (the heuristic with learned weights): its network turns
    ``spaces.observation`` = 1 constant (or the faction's place) into ``spaces.actions`` = one
    value per name. No ``prior``."""
    search = d["search"]
    kind = search.get("kind") if isinstance(search, dict) else None
    if kind not in SEARCH_KEYS:
        raise _fail(source, "search.kind", f"{kind!r}; allowed: {', '.join(SEARCH_KEYS)}")
    keys = SEARCH_KEYS[kind]
    if set(search) != set(keys):
        raise _fail(source, "search", f"a search of kind {kind} has the keys {', '.join(keys)}; "
                    f"this one has {', '.join(sorted(search))}")
    if not isinstance(search["features"], str):
        raise _fail(source, "search.features", f"{search['features']!r}: must be a name")
    if kind == "tuned-heuristic":
        _check_tuned(d, source)
    elif search["candidates"] != "planner":
        raise _fail(source, "search.candidates", f"{search['candidates']!r}; allowed: planner")
    for key, (lo, hi) in SEARCH_COUNTS.items():
        if key in search:
            n = search[key]
            if isinstance(n, bool) or not isinstance(n, int) or not lo <= n <= hi:
                raise _fail(source, f"search.{key}", f"{n!r}: a whole number from {lo} to {hi}")
    m = search.get("margin", 0)
    if isinstance(m, bool) or not isinstance(m, int | float) or not 0 <= m <= 100:
        raise _fail(source, "search.margin", f"{m!r}: a number from 0 to 100")
    if kind != "tuned-heuristic" and d["spaces"]["actions"] != 1:
        raise _fail(source, "spaces.actions", f"{d['spaces']['actions']!r}: a search "
                    "policy's network gives 1 value")
    if "prior" in d:
        raise _fail(source, "prior", "a search policy has no prior")


def _check_tuned(d: dict[str, Any], source: Any) -> None:
    """A ``tuned-heuristic`` search: a constant (``features: constant``) or the faction's place
    (``faction``, ``sheet``: the features of that reading in this version,
    :data:`~factionsim.agents.wwn_heuristic.tuning.READINGS`) in, one value per named parameter
    out."""
    from factionsim.agents.wwn_heuristic.tuning import TUNING_INPUTS as reads

    search = d["search"]
    names = search["parameters"]
    if search["features"] not in reads:
        raise _fail(source, "search.features", f"{search['features']!r}; allowed: "
                    f"{', '.join(reads)}")
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise _fail(source, "search.parameters", "must be a list of the tuning's names")
    inputs = reads[search["features"]]
    if d["spaces"]["observation"] != inputs or d["spaces"]["actions"] != len(names):
        raise _fail(source, "spaces", f"a tuned heuristic with features {search['features']} "
                    f"reads {inputs} value(s) and gives one per parameter ({len(names)}); this "
                    f"one reads {d['spaces']['observation']} and gives {d['spaces']['actions']}")


def _check_members(path: Path, data: bytes) -> None:
    """Every member of the ``.npz`` is a ``.npy`` array and they unpack to a bounded size."""
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
    except zipfile.BadZipFile:
        raise _fail(path, "", "not an .npz weights file (not a zip archive)") from None
    total = 0
    for info in infos:
        if not info.filename.endswith(".npy"):
            raise _fail(path, "", f"member {info.filename!r} is not a .npy array")
        total += info.file_size
    if total > MAX_ARRAYS_BYTES:
        raise _fail(path, "", f"its arrays unpack to {total} bytes; at most {MAX_ARRAYS_BYTES}")


def read_arrays(path: Path, sha256: str | None = None,
                described_in: Any = "the description") -> dict[str, np.ndarray]:
    """The named float arrays of an ``.npz`` file, never unpickling (``allow_pickle=False``);
    ``sha256``: the digest the file must have (given in ``described_in``)."""
    data = _read_bounded(path, MAX_WEIGHTS_BYTES, "weights file")
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256.lower():
        raise _fail(path, "", f"its SHA-256 differs from weights.sha256 in {described_in} (the "
                    "weights file was changed or belongs to another description)")
    _check_members(path, data)
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {name: npz[name] for name in npz.files}
    except (ValueError, OSError, zipfile.BadZipFile, EOFError) as exc:
        raise _fail(path, "", f"cannot read the arrays: {exc}") from None
    for name, a in arrays.items():
        if a.dtype.kind != "f":
            raise _fail(path, name, f"array of {a.dtype}; weights must be floats "
                        f"({', '.join(WEIGHT_DTYPES)})")
        if not np.isfinite(a).all():
            raise _fail(path, name, "holds NaN or infinite values")
    return arrays


def read_policy(path: str | os.PathLike[str]) -> PolicyModel:
    """Read ``NAME.json`` and the weights file it names; :class:`ModelFileError` for any
    problem (file, field, what is wrong)."""
    path = Path(path)
    raw = _read_bounded(path, MAX_DESCRIPTION_BYTES, "policy description")
    try:
        d = json.loads(raw.decode("utf-8"))
    except json.JSONDecodeError as exc:
        raise _fail(path, f"line {exc.lineno}, column {exc.colno}", f"not valid JSON: "
                    f"{exc.msg}") from None
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise _fail(path, "", f"not a JSON policy description ({type(exc).__name__})") from None
    check_description(d, path)
    arrays = read_arrays(path.parent / d["weights"]["file"], d["weights"]["sha256"], path)
    in_size = d["spaces"]["observation"] + (d["spaces"]["actions"] if "prior" in d else 0)
    network = Network.from_spec(d["network"], arrays, in_size, where=f"{path}: network")
    if network.out_size != d["spaces"]["actions"]:
        raise _fail(path, "network", f"its last layer gives {network.out_size} values; "
                    f"spaces.actions is {d['spaces']['actions']}")
    return PolicyModel(d, network, str(path))


# ----------------------------------------------------------------------------- writing
def _npz_bytes(arrays: Mapping[str, np.ndarray]) -> bytes:
    """An ``.npz`` (deflated) with fixed timestamps: the same arrays give the same bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(arrays):
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with zf.open(info, "w", force_zip64=True) as f:
                np.lib.format.write_array(f, np.ascontiguousarray(arrays[name]),
                                          allow_pickle=False)
    return buf.getvalue()


def _write_bytes_atomic(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` (readers see the old or the new file; the mode a new file
    gets from the umask)."""
    umask = os.umask(0)
    os.umask(umask)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_policy(path: str | os.PathLike[str], description: Mapping[str, Any],
                 arrays: Mapping[str, np.ndarray], dtype: str = "float32") -> PolicyModel:
    """Write ``path`` (the JSON description) and the ``.npz`` beside it (same stem), the arrays
    stored as ``dtype``; fills in ``format``, ``format_version`` and ``weights``; returns the
    policy read back from disk (so what was written is known to load)."""
    if dtype not in WEIGHT_DTYPES:
        raise ValueError(f"dtype {dtype!r}; allowed: {', '.join(WEIGHT_DTYPES)}")
    path = Path(path)
    if path.suffix != ".json":
        raise ValueError(f"{path}: a policy description's name ends in .json")
    stored = {k: np.asarray(v, dtype=dtype) for k, v in arrays.items()}
    data = _npz_bytes(stored)
    d = {"format": FORMAT, "format_version": FORMAT_VERSION,
         **{k: v for k, v in description.items() if k not in ("format", "format_version")},
         "weights": {"file": path.with_suffix(".npz").name,
                     "sha256": hashlib.sha256(data).hexdigest(), "dtype": dtype,
                     "parameters": int(sum(a.size for a in stored.values()))}}
    check_description(d, path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _write_bytes_atomic(path.with_suffix(".npz"), data)
    write_atomic(path, json.dumps(d, indent=2) + "\n")
    return read_policy(path)
