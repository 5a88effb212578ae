"""The ``trl`` export renders through ``transformers`` chat templates as loaded from Parquet.

The tokenizer is built here from a tiny word-level vocabulary and a chat template string —
nothing is downloaded. The template is written for this test in the style of Llama 3.1's (the
points that broke real exports): it tests ``'tool_calls' in message`` and takes
``message.tool_calls | length``, ``trim``s every ``content``, renders an assistant message that
has ``tool_calls`` as the call alone (its content is dropped) and tool results as ``ipython``
turns. A row whose messages carry ``None``-valued keys (what a struct column gives back) cannot
render through it; the exported rows must, and the final answer's prose must survive.
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from replicas.export import ExportConfig, OracleSpec, export_sft

os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

LLAMA31_STYLE = """{{- bos_token }}
{%- if messages[0]['role'] == 'system' %}
    {%- set system_message = messages[0]['content'] | trim %}
    {%- set messages = messages[1:] %}
{%- else %}
    {%- set system_message = '' %}
{%- endif %}
{{- '<|start_header_id|>system<|end_header_id|>\\n\\n' + system_message + '<|eot_id|>' }}
{%- if tools is not none %}
    {{- '<|start_header_id|>user<|end_header_id|>\\n\\nFunctions:\\n' }}
    {%- for t in tools %}{{- t | tojson }}{{- '\\n' }}{%- endfor %}
    {{- messages[0]['content'] | trim + '<|eot_id|>' }}
    {%- set messages = messages[1:] %}
{%- endif %}
{%- for message in messages %}
    {%- if not (message.role == 'tool' or 'tool_calls' in message) %}
        {{- '<|start_header_id|>' + message['role'] + '<|end_header_id|>\\n\\n' }}
        {{- message['content'] | trim + '<|eot_id|>' }}
    {%- elif 'tool_calls' in message %}
        {%- if not message.tool_calls | length == 1 %}
            {{- raise_exception('only one tool call per message') }}
        {%- endif %}
        {%- set call = message.tool_calls[0].function %}
        {{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}
        {{- '{"name": "' + call.name + '", "parameters": ' + call.arguments | tojson + '}' }}
        {{- '<|eot_id|>' }}
    {%- else %}
        {{- '<|start_header_id|>ipython<|end_header_id|>\\n\\n' + message.content + '<|eot_id|>' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|start_header_id|>assistant<|end_header_id|>\\n\\n' }}{%- endif %}
"""


def _tokenizer() -> Any:
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {"[UNK]": 0, "<|begin_of_text|>": 1, "<|eot_id|>": 2}
    core = Tokenizer(models.WordLevel(vocab=vocab, unk_token="[UNK]"))
    core.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=core, bos_token="<|begin_of_text|>", eos_token="<|eot_id|>"
    )
    tokenizer.chat_template = LLAMA31_STYLE
    return tokenizer


def _render(tokenizer: Any, row: dict[str, Any]) -> str:
    return str(tokenizer.apply_chat_template(row["messages"], tools=row["tools"], tokenize=False))


@pytest.fixture(scope="module")
def trl_rows(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[dict[str, Any]]]:
    import datasets

    root = tmp_path_factory.mktemp("trl")
    spec = OracleSpec(
        families=("credit_cards.card_terms_qa-v1", "ecommerce.revenue_period-v1"),
        seeds=(1, 2),
        variants_per_seed=2,
    )
    rows: dict[str, list[dict[str, Any]]] = {}
    for name, prose_turn in (("split", None), ("merged", False)):
        out = root / name
        export_sft(ExportConfig(out=out, format="trl", oracle=spec, prose_turn=prose_turn))
        loaded = datasets.load_dataset(
            "parquet", data_dir=str(out / "data"), cache_dir=str(root / "cache")
        )
        rows[name] = [dict(r) for split in loaded for r in loaded[split]]
    return rows


def test_every_exported_row_renders_with_its_prose(
    trl_rows: dict[str, list[dict[str, Any]]],
) -> None:
    tokenizer = _tokenizer()
    rows = trl_rows["split"]
    assert len(rows) >= 4
    for row in rows:
        assert all(None not in message.values() for message in row["messages"])
        text = _render(tokenizer, row)
        prose = row["messages"][-2]["content"]
        assert (
            row["messages"][-2]["role"] == "assistant" and "tool_calls" not in row["messages"][-2]
        )
        assert prose.strip() and prose.strip() in text  # the final prose survives the template
        assert '{"name": "submit"' in text
        assert len(tokenizer(text)["input_ids"]) > 0


def test_without_the_prose_turn_the_template_drops_the_prose(
    trl_rows: dict[str, list[dict[str, Any]]],
) -> None:
    tokenizer = _tokenizer()
    for row in trl_rows["merged"]:
        final = row["messages"][-1]
        assert final["content"] and final["tool_calls"][0]["function"]["name"] == "submit"
        assert final["content"].strip() not in _render(tokenizer, row)


def test_none_padded_messages_do_not_render(trl_rows: dict[str, list[dict[str, Any]]]) -> None:
    """The control: the same row padded the way a struct column pads it breaks the template
    (rendered by jinja directly; transformers 4.x passes the keys through and fails the same
    way, 5.x drops None-valued keys before rendering)."""
    import jinja2
    import transformers
    from jinja2.sandbox import ImmutableSandboxedEnvironment

    row = trl_rows["split"][0]
    keys = {k for message in row["messages"] for k in message}
    padded = [{k: m.get(k) for k in sorted(keys)} for m in row["messages"]]

    def raise_exception(message: str) -> None:
        raise jinja2.TemplateError(message)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    template = env.from_string(LLAMA31_STYLE)
    context = {"bos_token": "", "tools": row["tools"], "raise_exception": raise_exception}
    template.render(messages=row["messages"], **context)  # the exported row renders
    with pytest.raises((TypeError, jinja2.TemplateError)):
        template.render(messages=padded, **context)
    if int(transformers.__version__.split(".")[0]) < 5:
        with pytest.raises(Exception):  # noqa: B017 - jinja's error, possibly wrapped
            _render(_tokenizer(), {"messages": padded, "tools": row["tools"]})
