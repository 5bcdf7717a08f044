"""Module.time_evaluator: run a function repeatedly and report seconds per run."""

from __future__ import annotations

import math
import time

from .device import Device
from .device_api import CPU, get_device_api


class ProfileResult:
    """Seconds per run for each repeat; mean/median/min/max/std summarise them."""

    __slots__ = ("results",)

    def __init__(self, results):
        self.results = tuple(float(r) for r in results)

    @property
    def mean(self) -> float:
        return sum(self.results) / len(self.results)

    @property
    def median(self) -> float:
        ordered = sorted(self.results)
        mid = len(ordered) // 2
        return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2

    @property
    def min(self) -> float:
        return min(self.results)

    @property
    def max(self) -> float:
        return max(self.results)

    @property
    def std(self) -> float:
        mean = self.mean
        return math.sqrt(sum((r - mean) ** 2 for r in self.results) / len(self.results))

    def __repr__(self) -> str:
        return (
            f"ProfileResult(mean={self.mean:.6g}, median={self.median:.6g}, min={self.min:.6g}, "
            f"max={self.max:.6g}, std={self.std:.6g}, results={self.results})"
        )


def _check_count(name: str, value, minimum: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(
            f"time_evaluator: argument {name!r} must be an int >= {minimum}, got "
            f"{type(value).__name__} {value!r}"
        )
    if value < minimum:
        raise ValueError(
            f"time_evaluator: argument {name!r} must be an int >= {minimum}, got {value!r}"
        )
    return value


def make_time_evaluator(
    func,
    dev: Device,
    number=10,
    repeat=1,
    min_repeat_ms=0,
    cooldown_interval_ms=0,
    repeats_to_cooldown=1,
):
    """A callable that runs func(*args) `number` times per repeat and returns a ProfileResult.

    One untimed warm-up call runs first. When a repeat takes under min_repeat_ms, `number`
    grows for the following repeats, as the measured rate suggests.
    """
    if not isinstance(dev, Device):
        raise TypeError(
            f"time_evaluator: argument 'dev' must be a Device, got {type(dev).__name__}"
        )
    number = _check_count("number", number, 1)
    repeat = _check_count("repeat", repeat, 1)
    min_repeat_ms = _check_count("min_repeat_ms", min_repeat_ms, 0)
    cooldown_interval_ms = _check_count("cooldown_interval_ms", cooldown_interval_ms, 0)
    repeats_to_cooldown = _check_count("repeats_to_cooldown", repeats_to_cooldown, 1)
    api = None if int(dev.device_type) == CPU else get_device_api(dev)

    def sync():
        if api is not None:
            api.sync(dev)

    def evaluator(*args) -> ProfileResult:
        runs = number
        func(*args)
        sync()
        results = []
        for index in range(repeat):
            while True:
                start = time.perf_counter()
                for _ in range(runs):
                    func(*args)
                sync()
                elapsed = time.perf_counter() - start
                if elapsed * 1e3 >= min_repeat_ms or runs >= 1 << 30:
                    break
                # Aim for min_repeat_ms, growing at least by the golden ratio to converge quickly.
                per_run = max(elapsed / runs, 1e-9)
                runs = max(int(min_repeat_ms / 1e3 / per_run) + 1, int(runs * 1.618) + 1)
            results.append(elapsed / runs)
            if cooldown_interval_ms and (index + 1) % repeats_to_cooldown == 0:
                time.sleep(cooldown_interval_ms / 1e3)
        return ProfileResult(results)

    return evaluator
