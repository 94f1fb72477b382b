"""The value network in JAX, as ``docs/network.md`` computes it, and one
step of training with Optax.

The output is trained in rows (the engine's unit divided by 100) so that
the weights start at a sensible scale; the export multiplies the output
layer by 100. The loss is the squared difference between the win
probability the output gives (a logistic of ``scale`` hundredths of a
row, as the targets were made) and the target."""

from __future__ import annotations

from typing import Any, Dict, Tuple

import numpy as np

try:
    import jax
    import jax.numpy as jnp
    import optax
except ImportError as missing:  # pragma: no cover - the message is the point
    raise ImportError(f"phutball.train needs JAX and Optax ({missing}): pip install 'phutball[train]'") from missing

from ._weights import BoardWeights, feature_count

Params = Dict[str, Any]

# The engine's units per trained unit: hundredths of a row per row.
ENGINE_UNITS = 100.0


def init_params(key: Any, cols: int, rows: int, hidden: int) -> Params:
    """Small random first-layer weights, biases that leave about half the
    units active, and an output layer that starts at zero."""
    features = feature_count(cols, rows)
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (features, hidden), jnp.float32) * (1.0 / np.sqrt(32.0)),
        "b1": jnp.full((hidden,), 0.5, jnp.float32),
        "w2": jax.random.normal(k2, (hidden,), jnp.float32) * 0.01,
        "b2": jnp.zeros((), jnp.float32),
    }


def value_in_rows(params: Params, inputs: Any) -> Any:
    """The network's output for a batch of input rows (dense, one column a
    feature), in rows."""
    hidden = jnp.clip(inputs @ params["w1"] + params["b1"], 0.0, 1.0)
    return hidden @ params["w2"] + params["b2"]


def loss(params: Params, inputs: Any, targets: Any, scale: float) -> Any:
    """Mean squared difference of win probabilities."""
    predicted = jax.nn.sigmoid(value_in_rows(params, inputs) * (ENGINE_UNITS / scale))
    return jnp.mean((predicted - targets) ** 2)


def make_step(optimizer: "optax.GradientTransformation", scale: float):
    """A compiled training step: (params, state, inputs, targets) to (params, state, loss)."""

    @jax.jit
    def step(params: Params, state: Any, inputs: Any, targets: Any) -> Tuple[Params, Any, Any]:
        value, grads = jax.value_and_grad(loss)(params, inputs, targets, scale)
        updates, state = optimizer.update(grads, state, params)
        return optax.apply_updates(params, updates), state, value

    return step


def make_evaluate(scale: float):
    """A compiled loss of a batch, without training."""
    return jax.jit(lambda params, inputs, targets: loss(params, inputs, targets, scale))


def export(params: Params, cols: int, rows: int) -> BoardWeights:
    """The network in the weights file's terms (output in the engine's units)."""
    return BoardWeights(
        cols=cols,
        rows=rows,
        w1=np.asarray(params["w1"], dtype=np.float32),
        b1=np.asarray(params["b1"], dtype=np.float32),
        w2=np.asarray(params["w2"], dtype=np.float32) * ENGINE_UNITS,
        b2=float(params["b2"]) * ENGINE_UNITS,
    )
