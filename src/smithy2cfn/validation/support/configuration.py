"""Configuration of the validators a model turns on in its ``validators`` metadata: the
errors a configuration raises and readers of its values (the reference's
``ValidatorService.Provider`` factories deserialize the ``configuration`` node the same way;
their messages are the reference's ``NodeMapper`` messages).

Shared by :mod:`smithy2cfn.validation.core.configured` (which runs them) and
:mod:`smithy2cfn.validation.smithy_linters` (which defines most of them).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from smithy2cfn.languages.selector import SelectorError, parse_selector
from smithy2cfn.model.nodes import describe, node_type
from smithy2cfn.validation import Validator

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

#: A configurable validator: its configuration object → the validator (raises ConfigError).
if TYPE_CHECKING:
    Factory = Callable[[dict[str, Any]], Validator]
else:  # (the same, without typing at run time)
    Factory = Callable


class ConfigError(ValueError):
    """A validator's configuration it cannot be made from (the message says why)."""


# --------------------------------------------------------------------------- configuration values


def config_object(config: Any, allowed: Iterable[str] | None = None) -> dict[str, Any]:
    """``config`` when it is an object (and, with ``allowed``, has no other property)."""
    if not isinstance(config, dict):
        raise ConfigError(f"Expected configuration to be an object, but found {node_type(config)}")
    if allowed is not None:
        extra = sorted(set(config) - set(allowed))
        if extra:
            raise ConfigError(f"Expected an object with possible properties of {', '.join(allowed)}, but found "
                              f"additional properties: {', '.join(extra)}")
    return config


def config_bool(config: dict[str, Any], key: str, default: bool = False) -> bool:
    """A boolean property (``default`` when absent)."""
    value = config.get(key, default)
    if not isinstance(value, bool):
        raise ConfigError(f"Deserialization error at (/{key}): expected a boolean, but found {node_type(value)}")
    return value


def config_string(config: dict[str, Any], key: str) -> str | None:
    """A string property (``None`` when absent)."""
    value = config.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"Deserialization error at (/{key}): expected a string, but found {node_type(value)}")
    return value


def config_strings(config: dict[str, Any], key: str) -> list[str]:
    """A list-of-strings property (``[]`` when absent)."""
    value = config.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"Deserialization error at (/{key}): expected a list of strings, but found "
                          f"{describe(value)}")
    return value


def config_string_lists(config: dict[str, Any], key: str) -> dict[str, list[str]]:
    """An object-of-string-lists property (``{}`` when absent)."""
    value = config.get(key, {})
    if not isinstance(value, dict) or not all(
            isinstance(v, list) and all(isinstance(s, str) for s in v) for v in value.values()):
        raise ConfigError(f"Deserialization error at (/{key}): expected an object whose values are lists of "
                          f"strings, but found {describe(value)}")
    return value


def config_selector(config: dict[str, Any], key: str) -> tuple[str, tuple] | None:
    """A selector property: ``(text, parsed)``, or ``None`` when absent."""
    text = config_string(config, key)
    if text is None:
        return None
    try:
        return text, parse_selector(text)
    except SelectorError as e:
        raise ConfigError(f"Error parsing `{key}`: {e}") from None


def config_required_selector(config: dict[str, Any], key: str) -> tuple[str, tuple]:
    """A selector property that must be given: ``(text, parsed)``; ``ConfigError("<key> is
    required")`` when absent."""
    found = config_selector(config, key)
    if found is None:
        raise ConfigError(f"{key} is required")
    return found


__all__ = ["ConfigError", "Factory", "Validator", "config_bool", "config_object", "config_required_selector",
           "config_selector", "config_string", "config_string_lists", "config_strings"]
