x = f"a{b!r:>{w}}c{{d}}" f"{x = }"
y = f"""
{a
}"""
