"""The learned bot (神经网络): its observation encoding and a numpy policy network."""
