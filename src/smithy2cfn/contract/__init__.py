"""Contract-test inputs of a resource-type project (issue 18): ``inputs/inputs_N_create.json``,
``inputs_N_update.json`` and ``inputs_N_invalid.json`` for ``cfn test``, made from the model's
``@examples`` on the lifecycle operations, or derived from the schema where there are none.

:func:`contract_inputs` is a pure function: it reads the model, the conversion plan and the
emitted schemas, and returns file texts; the writer writes them. Layer: after ``lint``,
before ``diff`` (README "Architecture").
"""

from __future__ import annotations

from smithy2cfn.contract.inputs import CODES, MAX_SETS, contract_inputs, render_input

__all__ = ["CODES", "MAX_SETS", "contract_inputs", "render_input"]
